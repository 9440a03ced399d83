/**
 * Orphaned sessions, for `oceancode doctor`: a session whose last stored turn never ended (its last row is
 * not the end of a turn: the prompt checkpoint row, a step's assistant row with tool calls, their
 * results) and whose session lock nobody holds. The lock dies with its process (lock.ts; PostgreSQL: an
 * advisory lock that dies with its connection), so a free lock over a running turn means the process
 * that ran it is gone: killed, crashed, or the machine went down. Any store gives the candidates; the
 * judging is here. Pure but for the lock probe; published through api.ts.
 */
import type { RetentionLock } from "./retention.js";
import { type OrphanedSession, type LastRow } from "./api.js";
export { type LastRow, type OrphanedSession } from "./api.js";

/** Notes that carry a turn on (a stop hook's continuation, the step cap's fresh turn); every other note ends its turn. */
const CARRIES_ON = /^\[(continued by |step cap \d+ reached: continuing)/;

/** Whether a row is the last one of a finished turn: an answer without tool calls, or a closing note. */
export function endsTurn(role: string, json: string): boolean {
  let row: { toolCalls?: unknown[]; text?: string };
  try {
    row = JSON.parse(json) as { toolCalls?: unknown[]; text?: string };
  } catch {
    return false;
  }
  if (role === "assistant") return !Array.isArray(row.toolCalls) || row.toolCalls.length === 0;
  if (role === "note") return !CARRIES_ON.test(row.text ?? "");
  return false;
}

/** The candidates whose turn is still open and whose lock is free (the lock is released at once). */
export async function findOrphans(last: readonly LastRow[], tryLock: (id: string) => Promise<RetentionLock>): Promise<OrphanedSession[]> {
  const out: OrphanedSession[] = [];
  for (const r of last) {
    if (endsTurn(r.role, r.json)) continue;
    const lock = await tryLock(r.id);
    if ("busy" in lock) continue; // running right now, in a live process
    await lock.release();
    out.push({ id: r.id, cwd: r.cwd, turn: r.turn, lastSeq: r.seq, lastActive: r.updatedAt, ...(r.title ? { title: r.title } : {}) });
  }
  return out.sort((a, b) => b.lastActive - a.lastActive);
}
