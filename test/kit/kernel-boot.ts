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
