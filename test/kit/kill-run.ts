/**
 * Crash drills: start `oceancode run --format json ...`, count its step_end events, and SIGKILL it a
 * chosen delay after it finished `afterSteps` steps (a 60 s guard kills a run that never gets there).
 */
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { CLI } from "./cli.js";

/** A `run --format json` event as far as the drills read it. */
export interface RunEvent {
  type?: string;
  sessionId?: string;
}

/** Each whole JSON line `out` writes, parsed, to `fn`; a line that is not JSON (cut short by a kill) is passed over. */
export function onJsonEvents(out: Readable, fn: (e: RunEvent) => void): void {
  let buf = "";
  out.on("data", (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let e: RunEvent;
      try {
        e = JSON.parse(line) as RunEvent;
      } catch {
        continue;
      }
      fn(e);
    }
  });
}

export interface KilledRun {
  sessionId?: string;
  steps: number;
  signal: NodeJS.Signals | null;
}

export function runAndKill(opts: { args: string[]; cwd: string; env: NodeJS.ProcessEnv; afterSteps: number; delayMs: number }): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...opts.args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let sessionId: string | undefined;
    let steps = 0;
    let armed = false;
    onJsonEvents(child.stdout, (e) => {
      if (e.type === "session") sessionId = e.sessionId;
      if (e.type === "step_end") steps++;
      if (!armed && steps >= opts.afterSteps) {
        armed = true;
        setTimeout(() => child.kill("SIGKILL"), opts.delayMs);
      }
    });
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      clearTimeout(guard);
      resolve({ sessionId, steps, signal });
    });
  });
}
