/** A real kernel (compiled bundled extensions, SQLite storage, the ledger, the real tools) on a sandbox, for the checkpoints tests. */
import fs from "node:fs";
import path from "node:path";
import type { Sandbox } from "../../../test/kit/cli.js";
import { afterEachTest } from "../../../test/kit/file-fixtures.js";
import type { EngineService, Row, Session } from "../../engine/api.js";
import { bootCompiled, scriptedSandbox, type KernelLike as BaseKernel } from "../../../test/kit/kernel-boot.js";

export interface KernelLike extends BaseKernel {
  runSlash(name: string, args: string, host: { sessionId?: string; reply(t: string): void; [k: string]: unknown }): Promise<boolean>;
}

export interface Booted {
  sb: Sandbox;
  kernel: KernelLike;
  engine: EngineService;
  /** the rows of each model request's window, in order */
  windows: Row[][];
}

export type Step = { text?: string; tool_calls?: Array<{ name: string; input: Record<string, unknown> }> };

export async function boot(steps: Step[], files: Record<string, string> = {}): Promise<Booted> {
  const sb = scriptedSandbox("oc-ckpt-", steps, { files });
  const kernel = await bootCompiled<KernelLike>(sb);
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const windows: Row[][] = [];
  engine.hooks.contextBuild.tap({ name: "test", stage: "notes" }, (win) => {
    windows.push([...win.rows]);
    return win;
  });
  return { sb, kernel, engine, windows };
}

/** Run a slash command as a host without a picker (run, serve): returns what it replied. */
/** `boot`, remembering each kernel so that after each test it is shut down and its sandbox removed. */
export function bootTests(): { boot: typeof boot } {
  const booted = afterEachTest<Booted>(async (b) => {
    await b.kernel.shutdown();
    b.sb.cleanup();
  });
  return { boot: async (...a) => booted(await boot(...a)) };
}

export async function slash(b: Booted, s: Session, name: string, args = "", extra: Record<string, unknown> = {}): Promise<string> {
  let out = "";
  const handled = await b.kernel.runSlash(name, args, { sessionId: s.info.id, cwd: b.sb.project, reply: (t: string) => (out += t), ...extra });
  if (!handled) throw new Error(`/${name} not handled`);
  return out;
}

/** A project file's text, or undefined when it does not exist. */
export function readProject(b: Booted, f: string): string | undefined {
  try {
    return fs.readFileSync(path.join(b.sb.project, f), "utf8");
  } catch {
    return undefined;
  }
}
