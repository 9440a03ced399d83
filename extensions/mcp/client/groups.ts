/**
 * The process groups of the stdio servers this process started, killed synchronously when it exits
 * (process 'exit', and SIGTERM / SIGHUP / SIGINT when nothing else handles them). No SDK import: the manager
 * loads it eagerly, the SDK only when a server starts.
 */

import { spawn, type ChildProcess } from "node:child_process";

/** pids of live process groups (each the group leader's pid) */
const liveGroups = new Set<number>();

export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  hookExit();
}
export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Kill every server process group still alive (synchronous: safe in an 'exit' listener). */
export function killAllGroups(): void {
  for (const pid of liveGroups) killGroup(pid, "SIGKILL");
  liveGroups.clear();
}

export function liveGroupCount(): number {
  return liveGroups.size;
}

let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", killAllGroups);
  // a signal nobody else handles would end the process without 'exit': kill the groups, then die as before
  // (SIGINT too: `run` handles it only while a prompt runs; a ctrl-c during shutdown is default-handled)
  const onSignal = (sig: NodeJS.Signals) => {
    killAllGroups();
    if (process.listenerCount(sig) === 1) {
      process.off(sig, onSignal);
      process.kill(process.pid, sig);
    }
  };
  for (const sig of ["SIGTERM", "SIGHUP", "SIGINT"] as const) process.on(sig, onSignal);
}

export interface GroupSpawn {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Spawn a server as the leader of its own process group (detached) with piped stdio; resolves once it
 * runs (rejects with the spawn error, e.g. ENOENT). No SDK needed: the manager spawns while the SDK loads,
 * and the transport attaches to the pipes afterwards (nothing written meanwhile is lost).
 */
export function spawnGroup(spec: GroupSpawn): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"], detached: true, shell: false });
    child.once("error", reject);
    child.once("spawn", () => {
      if (child.pid) trackGroup(child.pid);
      // the pipes must not keep this process alive once the group is gone
      child.unref();
      resolve(child);
    });
  });
}
