/**
 * Crash drills: start `oceancode run --format json ...`, count its step_end events, and SIGKILL it a
 * chosen delay after it finished `afterSteps` steps (a 60 s guard kills a run that never gets there).
 */
import { spawn } from "node:child_process";
import { CLI } from "./cli.js";

export interface KilledRun {
  sessionId?: string;
  steps: number;
  signal: NodeJS.Signals | null;
}

export function runAndKill(opts: { args: string[]; cwd: string; env: NodeJS.ProcessEnv; afterSteps: number; delayMs: number }): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...opts.args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let buf = "";
    let sessionId: string | undefined;
    let steps = 0;
    let armed = false;
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let e: { type: string; sessionId?: string };
        try {
          e = JSON.parse(line) as { type: string; sessionId?: string };
        } catch {
          continue; // a line cut by the kill
        }
        if (e.type === "session") sessionId = e.sessionId;
        if (e.type === "step_end") steps++;
        if (!armed && steps >= opts.afterSteps) {
          armed = true;
          setTimeout(() => child.kill("SIGKILL"), opts.delayMs);
        }
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
