/** Start a child in its own process group and kill the whole group (timeouts, aborts, job_kill). */
import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { SpawnSpec } from "../engine/api.js";

/** SIGTERM to the group, then SIGKILL after a grace period if anything in it is still alive. */
export function killGroup(child: ChildProcess, graceMs = 1000): void {
  const pid = child.pid;
  if (pid === undefined) return;
  const send = (sig: NodeJS.Signals): boolean => {
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false; // group already gone
    }
  };
  if (!send("SIGTERM")) return;
  const t = setTimeout(() => send("SIGKILL"), graceMs);
  t.unref();
}

export interface Started {
  child: ChildProcess;
  /** resolves when the child exited and its pipes drained (or shortly after exit, if a grandchild keeps them open) */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export type StreamName = "stdout" | "stderr";

/**
 * Spawn `spec` detached (own process group), stdin closed, stdout+stderr decoded in arrival order.
 * `onText` is told which stream each piece came from (bash keeps them apart for hooks' tool_response).
 */
export function startChild(spec: SpawnSpec, onText: (s: string, stream: StreamName) => void): Started {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const decoders = [new StringDecoder("utf8"), new StringDecoder("utf8")];
  child.stdout?.on("data", (b: Buffer) => onText(decoders[0]!.write(b), "stdout"));
  child.stderr?.on("data", (b: Buffer) => onText(decoders[1]!.write(b), "stderr"));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      onText(decoders[0]!.end(), "stdout");
      onText(decoders[1]!.end(), "stderr");
      resolve(exited ?? { code: null, signal: null });
    };
    child.once("error", (e) => {
      onText(`failed to start ${spec.command}: ${e.message}\n`, "stderr");
      exited = { code: 127, signal: null };
      finish();
    });
    child.once("close", (code, signal) => {
      exited ??= { code, signal };
      finish();
    });
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      // a backgrounded grandchild may hold the pipes open: stop waiting for them shortly after exit
      const t = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, 200);
      t.unref();
    });
  });
  return { child, done };
}
