/** The real kernel for in-process tests: discovered over a sandbox's HOME and project with the compiled bundled extensions (dist/), logs quiet. */
import path from "node:path";
import { Kernel, stderrLogger } from "../../kernel/kernel.js";
import { resolvePaths } from "../../kernel/paths.js";
import { REPO_ROOT, type Sandbox } from "./cli.js";

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
