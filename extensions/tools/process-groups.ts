/**
 * Process groups a part of oceancode started (each child spawned detached, its pid the group id), tracked
 * until they are empty so nothing outlives the process: a process that exits any way at all SIGKILLs what
 * is left of them (one synchronous 'exit' listener per registry). The bash tool and the hook runner each
 * keep one registry.
 */

/** Whether the group has a live member (kill 0 probes; a zombie leader reaped by node is no member). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Send `sig` to the whole group; false when the group is already gone. */
export function signalGroup(pgid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch {
    return false;
  }
}

export interface GroupRegistry {
  /** start tracking a group (its leader's pid) */
  track(pgid: number): void;
  /** forget the group once nothing of it is left (its pid may then be reused by an unrelated group) */
  untrackIfEmpty(pgid: number): void;
  /** the groups tracked now (some may have emptied since) */
  tracked(): number[];
  /** stop tracking a group */
  forget(pgid: number): void;
}

export function groupRegistry(): GroupRegistry {
  const groups = new Set<number>();
  let exitHooked = false;
  return {
    track(pgid) {
      groups.add(pgid);
      if (exitHooked) return;
      exitHooked = true;
      // synchronous, last resort: a forced exit (a second signal, process.exit anywhere) leaves no group behind
      process.on("exit", () => {
        for (const g of groups) if (groupAlive(g)) signalGroup(g, "SIGKILL");
        groups.clear();
      });
    },
    untrackIfEmpty(pgid) {
      if (!groupAlive(pgid)) groups.delete(pgid);
    },
    tracked: () => [...groups],
    forget(pgid) {
      groups.delete(pgid);
    },
  };
}
