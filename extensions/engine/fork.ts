/**
 * `forkSession`: a new session whose history is another session's, up to a point. The rows come from the
 * stored session (loadSession), cut at `at` (a row's seq: the journal entry `r<seq>`), then narrowed by
 * engine.forkRows taps (the ledger keeps only the journal's path to that entry, so turns undone before it
 * stay out). They are renumbered (seq 1.., turns 1.. in order) and handed to engine.sessionForked taps
 * (storage and the ledger store them); the new session is then closed, ready for `run --session <id>`.
 * The source is only read: it may be open in another process.
 */
import { type EngineHooks, type ForkResult, type Row, type Session, type StoredSession } from "./api.js";
import { emptyUsage } from "./kit/rows.js";
import { isRefusal, sessionRefusedError } from "./kit/session.js";
import type { SessionTable } from "./sessions.js";

export const FORK_ENTRY_ERROR = "OC_ERR_FORK_ENTRY" as const;

function forkError(message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code: FORK_ENTRY_ERROR });
}

/** Parse an entry as the user writes it: `r12` or `12` (a row's seq), `turn:3` (the last row of turn 3). */
export function resolveEntry(rows: readonly Row[], entry: string): number {
  const t = entry.trim();
  const turn = /^turn:(\d+)$/i.exec(t);
  if (turn) {
    const n = Number(turn[1]);
    const last = [...rows].reverse().find((r) => r.turn === n);
    if (!last) throw forkError(`no turn ${n} in the session (it has ${rows.length ? rows[rows.length - 1]!.turn : 0})`);
    return last.seq;
  }
  const m = /^r?(\d+)$/.exec(t);
  if (!m) throw forkError(`'${entry}' is not an entry (write r<seq>, <seq> or turn:<n>)`);
  const seq = Number(m[1]);
  if (!rows.some((r) => r.seq === seq)) throw forkError(`no entry r${seq} in the session`);
  return seq;
}

/** A trailing assistant row whose tool calls got no results cannot be sent again: it is left out. */
function answerable(rows: Row[]): Row[] {
  const last = rows[rows.length - 1];
  return last && last.role === "assistant" && last.toolCalls.length > 0 ? rows.slice(0, -1) : rows;
}

export async function forkSession(hooks: EngineHooks, table: SessionTable, fromId: string, at?: string): Promise<ForkResult> {
  const answer = await hooks.loadSession.call({ id: fromId });
  if (isRefusal(answer)) throw sessionRefusedError(answer);
  const stored: StoredSession | undefined = answer;
  if (!stored) throw Object.assign(new Error(`no session '${fromId}' (see oceancode sessions --all)`), { code: "OC_ERR_NO_SESSION" });
  const atSeq = at !== undefined ? resolveEntry(stored.rows, at) : undefined;
  const upto = atSeq === undefined ? stored.rows : stored.rows.filter((r) => r.seq <= atSeq);
  const picked = answerable(await hooks.forkRows.call([...upto], { from: stored.info, ...(atSeq !== undefined ? { atSeq } : {}) }));
  const entry = `r${picked.length ? picked[picked.length - 1]!.seq : 0}`;
  const turnOf = new Map<number, number>();
  const rows: Row[] = picked.map((r, i) => {
    if (!turnOf.has(r.turn)) turnOf.set(r.turn, turnOf.size + 1);
    return { ...r, seq: i + 1, turn: turnOf.get(r.turn)! } as Row;
  });
  const forkedFrom = { session: fromId, entry };
  const session: Session = await table.create({ cwd: stored.info.cwd, model: stored.info.model, overrides: { ...stored.info.overrides, forked_from: forkedFrom } });
  try {
    session.rows.push(...rows);
    session.nextSeq = rows.length + 1;
    session.totals = { usage: emptyUsage(), costUsd: 0, turns: turnOf.size, steps: rows.filter((r) => r.role === "assistant").length };
    if (stored.info.title) session.info.title = `${stored.info.title} (fork)`;
    await hooks.sessionForked.call({ session, from: forkedFrom });
  } finally {
    await table.close(session, "fork");
  }
  return { id: session.info.id, from: fromId, entry, rows: rows.length, turns: turnOf.size };
}
