/** The real kernel for in-process tests: discovered over a sandbox's HOME and project with the compiled bundled extensions (dist/), logs quiet. */
import path from "node:path";
import { Kernel, stderrLogger } from "../../kernel/kernel.js";
import { resolvePaths } from "../../kernel/paths.js";
import { makeSandbox, REPO_ROOT, type Sandbox } from "./cli.js";
import { afterEachTest } from "./file-fixtures.js";

/** Discovered (with `env` over the sandbox's), not yet activated: the test activates the event it is about. */
export function discoverKernel(sb: Sandbox, extra: NodeJS.ProcessEnv = {}): Promise<Kernel> {
  const env = { ...sb.env, ...extra };
  return Kernel.discover({
    paths: resolvePaths({ home: sb.home, project: sb.project, env }),
    env,
    log: stderrLogger(false),
    bundled: { dir: REPO_ROOT, codeDir: path.join(REPO_ROOT, "dist") },
  });
}

/** makeSandbox and discoverKernel remembering what a test made: after it the kernels are shut down, then the sandboxes removed. */
export function kernelTests(): { makeSandbox: typeof makeSandbox; discoverKernel: typeof discoverKernel } {
  const box = afterEachTest<Sandbox>((s) => s.cleanup());
  const kernel = afterEachTest<Kernel>((k) => k.shutdown());
  return { makeSandbox: (prefix) => box(makeSandbox(prefix)), discoverKernel: async (...a) => kernel(await discoverKernel(...a)) };
}

/** What the tests call on the compiled kernel (a file-level extension of it adds what else a test needs). */
export interface KernelLike {
  activate(e: string): Promise<void>;
  service<T>(name: string): Promise<T>;
  shutdown(): Promise<void>;
}

/** The compiled kernel booted as the CLI boots it (dist/hosts/boot.js) on the sandbox, `env` its whole environment; not yet activated. */
export async function bootCompiled<K extends KernelLike = KernelLike>(sb: Sandbox, env: NodeJS.ProcessEnv = sb.env): Promise<K> {
  const { bootKernel } = (await import(path.join(REPO_ROOT, "dist", "hosts", "boot.js"))) as { bootKernel(f: object, env: NodeJS.ProcessEnv): Promise<K> };
  return bootKernel({ project: sb.project, home: sb.home, verbose: false }, env);
}

/** A sandbox whose project runs the scripted model's `script.json` (`steps`, then a closing answer) with no permission questions, `files` written and `config` over the project config. */
export function scriptedSandbox(prefix: string, steps: unknown[], o: { files?: Record<string, string>; config?: Record<string, unknown> } = {}): Sandbox {
  const sb = makeSandbox(prefix);
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions", ...(o.config ?? {}) }));
  sb.write("script.json", JSON.stringify({ steps, after: { text: "(script finished)" } }));
  for (const [f, c] of Object.entries(o.files ?? {})) sb.write(f, c);
  return sb;
}
