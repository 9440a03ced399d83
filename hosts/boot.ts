/** Shared by every host: resolve paths, discover the kernel over the bundled extensions, report errors. */
import path from "node:path";
import { fileURLToPath } from "node:url";
// the bootstrap: the one host file allowed the kernel's own modules (test/lint/reach.ts says why)
import { Kernel, stderrLogger } from "../kernel/kernel.js";
import { resolvePaths } from "../kernel/paths.js";
// on the start path: the API's own names from their module, not the whole API graph (test/lint/reach.ts)
import { isOcError, errorMessage, exitCodeOf } from "../kernel/errors.js";
import type { HostSetting } from "../kernel/api.js";

/** The booted kernel, for the hosts that drive it (they take its type from here, not from kernel/). */
export type { Kernel };
import { visible } from "./terminal/sanitize.js";

/** The package root: dist/hosts/boot.js -> ../.. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface HostFlags {
  project?: string;
  home?: string;
  verbose: boolean;
  /** doctor and inspect: boot past broken config files (reported as warnings) so they can diagnose them */
  tolerant?: boolean;
  /** the command line's settings: the kernel's host config layer (see hostSettings in cli/main.ts) */
  settings?: HostSetting[];
}

export async function bootKernel(flags: HostFlags, env: NodeJS.ProcessEnv = process.env): Promise<Kernel> {
  const paths = resolvePaths({ home: flags.home, project: flags.project, env });
  const kernel = await Kernel.discover({
    paths,
    env,
    log: stderrLogger(flags.verbose),
    tolerant: flags.tolerant,
    hostSettings: flags.settings,
    bundled: { dir: PACKAGE_ROOT, codeDir: path.join(PACKAGE_ROOT, "dist") },
  });
  for (const w of kernel.warnings) process.stderr.write(`oceancode: warning: ${visible(w)}\n`);
  return kernel;
}

/** Print an error as one line (stack only with -v) and return the exit code. */
export function reportError(e: unknown, verbose: boolean): number {
  if (isOcError(e)) {
    process.stderr.write(`oceancode: ${visible(errorMessage(e))}\n`);
    const stack = (e as { stack?: unknown }).stack;
    if (verbose && typeof stack === "string") process.stderr.write(`${stack}\n`);
    return exitCodeOf(e);
  }
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(`oceancode: error: ${visible(msg)}\n`);
  if (verbose && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  else process.stderr.write(`oceancode: (run with -v for details)\n`);
  return 1;
}
