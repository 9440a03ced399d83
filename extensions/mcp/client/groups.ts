/**
 * The process groups of the stdio servers this process started, killed synchronously when it exits
 * (process 'exit', and SIGTERM / SIGHUP when nothing else handles them). No SDK import: the manager
 * loads it eagerly, the SDK only when a server starts.
 */

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
  const onSignal = (sig: NodeJS.Signals) => {
    killAllGroups();
    if (process.listenerCount(sig) === 1) {
      process.off(sig, onSignal);
      process.kill(process.pid, sig);
    }
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
}
