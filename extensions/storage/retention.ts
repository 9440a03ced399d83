/**
 * Retention: one policy for every project. A session idle longer than `database.retention_days` loses
 * its rows in oceancode.db; each participant (the ledger) removes its own copy after its own days,
 * counted from the same last activity. Never swept: pinned sessions, sessions open in this process,
 * and sessions whose lock another process holds (try-acquire around each removal). A sweep that
 * removed anything says so in one warn line; one that removed nothing says nothing.
 */
import type { Logger } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import { acquireSessionLock, SessionBusyError, type LockHolder } from "./lock.js";
import type { ExpiringSession, RetentionParticipant } from "./api.js";
import { StorageOpenError } from "./db.js";
import type { SqliteStore } from "./store.js";

export const DEFAULT_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** a long-lived process (pager, serve) sweeps again at a session start once the last sweep is this old */
export const SWEEP_EVERY_MS = DAY_MS;

export interface RetentionPolicy {
  /** database.retention_days; 0 keeps the rows forever */
  dbDays: number;
  participants: readonly RetentionParticipant[];
  /** ids never swept (the sessions open in this process) */
  keep?: ReadonlySet<string>;
  now?: number;
}

export interface RetentionPlan {
  expiring: ExpiringSession[];
  /** pinned sessions past retention, kept */
  pinned: number;
}

type Verdict = { kind: "expiring"; session: ExpiringSession } | { kind: "pinned" } | undefined;

/** Judges sessions from fresh reads (also used under a session's lock, just before removing it). */
function judge(store: SqliteStore, policy: RetentionPolicy, now: number): (id: string) => Verdict {
  const db = store.db();
  const sessionRow = db.prepare(`SELECT cwd, updated_at FROM sessions WHERE id = ?`);
  const pinned = db.prepare(`SELECT 1 FROM pins WHERE session_id = ?`);
  const payload = db.prepare(
    `SELECT (SELECT COALESCE(SUM(LENGTH(json)), 0) FROM rows WHERE session_id = ?) + (SELECT COALESCE(SUM(LENGTH(json)), 0) FROM events WHERE session_id = ?) AS b`,
  );
  return (id) => {
    if (policy.keep?.has(id)) return undefined;
    const row = sessionRow.get(id) as { cwd: string; updated_at: number } | undefined;
    const holders = policy.participants.filter((p) => p.has(id));
    if (!row && holders.length === 0) return undefined;
    let lastActive = row?.updated_at ?? 0;
    let cwd = row?.cwd;
    if (!row) {
      // the database forgot it: the newest activity any store remembers
      for (const p of holders) {
        const d = p.describe(id);
        lastActive = Math.max(lastActive, d.lastActive);
        cwd ??= d.cwd;
      }
    }
    const past = (days: number) => days > 0 && lastActive < now - days * DAY_MS;
    const goes = holders.filter((p) => past(p.days));
    const dbGoes = row !== undefined && past(policy.dbDays);
    if (!dbGoes && goes.length === 0) return undefined;
    if (pinned.get(id) !== undefined) return { kind: "pinned" };
    let bytes = dbGoes ? (payload.get(id, id) as { b: number }).b : 0;
    for (const p of goes) bytes += p.bytes(id);
    const stores = [...(dbGoes ? ["database"] : []), ...goes.map((p) => p.name)];
    const keeps = [...(row && !dbGoes ? ["database"] : []), ...holders.filter((p) => !goes.includes(p)).map((p) => p.name)];
    return { kind: "expiring", session: { id, ...(cwd ? { cwd } : {}), lastActive, bytes, stores, ...(keeps.length ? { keeps } : {}) } };
  };
}

/** What a sweep now would remove (oldest first), without removing anything. */
export async function planRetention(store: SqliteStore, policy: RetentionPolicy): Promise<RetentionPlan> {
  const now = policy.now ?? Date.now();
  const days = [policy.dbDays, ...policy.participants.map((p) => p.days)].filter((d) => d > 0);
  if (days.length === 0) return { expiring: [], pinned: 0 };
  await store.settle().catch(() => undefined);
  // only sessions idle past the shortest retention can expire; the participants' own ids cover the
  // sessions the database no longer holds
  const cutoff = now - Math.min(...days) * DAY_MS;
  const ids = new Set((store.db().prepare(`SELECT id FROM sessions WHERE updated_at < ? ORDER BY updated_at`).all(cutoff) as Array<{ id: string }>).map((r) => r.id));
  for (const p of policy.participants) if (p.days > 0) for (const id of p.ids()) ids.add(id);
  const plan: RetentionPlan = { expiring: [], pinned: 0 };
  const verdict = judge(store, policy, now);
  for (const id of ids) {
    const v = verdict(id);
    if (v?.kind === "pinned") plan.pinned++;
    else if (v) plan.expiring.push(v.session);
  }
  plan.expiring.sort((a, b) => a.lastActive - b.lastActive || (a.id < b.id ? -1 : 1));
  return plan;
}

export interface SweepReport {
  removed: ExpiringSession[];
  /** open in another process: kept this time */
  busy: Array<{ id: string; holder?: LockHolder }>;
}

/** Remove what the plan names, each session under its lock and judged again under it. */
export async function sweepRetention(store: SqliteStore, policy: RetentionPolicy): Promise<SweepReport> {
  const plan = await planRetention(store, policy);
  const report: SweepReport = { removed: [], busy: [] };
  const verdict = judge(store, policy, policy.now ?? Date.now());
  for (const s of plan.expiring) {
    let lock;
    try {
      lock = await acquireSessionLock(store.dbPath, s.id);
    } catch (e) {
      if (!(e instanceof SessionBusyError)) throw e;
      report.busy.push({ id: s.id, ...(e.holder ? { holder: e.holder } : {}) });
      continue;
    }
    try {
      // another process may have resumed, pinned or swept it since the plan
      await store.settle().catch(() => undefined);
      const v = verdict(s.id);
      if (v?.kind !== "expiring") continue;
      if (v.session.stores.includes("database")) await store.deleteSession(s.id);
      for (const p of policy.participants) if (v.session.stores.includes(p.name)) await p.remove(s.id);
      report.removed.push(v.session);
    } finally {
      await lock.release();
    }
  }
  return report;
}

/** Which sessions another process holds open right now (for --expiring: the sweep would keep them). */
export async function busyElsewhere(dbFile: string, ids: readonly string[]): Promise<Map<string, LockHolder | undefined>> {
  const busy = new Map<string, LockHolder | undefined>();
  for (const id of ids) {
    try {
      await (await acquireSessionLock(dbFile, id)).release();
    } catch (e) {
      if (!(e instanceof SessionBusyError)) throw e;
      busy.set(id, e.holder);
    }
  }
  return busy;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1_048_576) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1_073_741_824) return `${(n / 1_048_576).toFixed(1)} MB`;
  return `${(n / 1_073_741_824).toFixed(1)} GB`;
}

export function day(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The one line a sweep that removed anything prints; undefined when it removed nothing. */
export function sweepLine(removed: readonly ExpiringSession[]): string | undefined {
  if (removed.length === 0) return undefined;
  const byProject = new Map<string, number>();
  for (const s of removed) byProject.set(s.cwd ?? "(unknown project)", (byProject.get(s.cwd ?? "(unknown project)") ?? 0) + 1);
  const projects = [...byProject].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = projects.slice(0, 3).map(([p, n]) => `${n} in ${p}`);
  if (projects.length > 3) shown.push(`${projects.length - 3} more project(s)`);
  const partial = removed.filter((s) => s.keeps?.length);
  const partialStores = [...new Set(partial.flatMap((s) => s.stores))].join(" and ");
  const bytes = removed.reduce((n, s) => n + s.bytes, 0);
  const oldest = Math.min(...removed.map((s) => s.lastActive));
  const count = `${removed.length} idle session${removed.length === 1 ? "" : "s"}`;
  const part = partial.length ? `; for ${partial.length} only the ${partialStores} copy, the rest stays under a longer retention` : "";
  // no "session: " in the line: scripts read the run's own "session: <id>" line from stderr
  return (
    `retention: removed ${count} (${shown.join(", ")}${part}), freed ${formatBytes(bytes)}, oldest last active ${day(oldest)}` +
    ` - oceancode sessions --expiring lists the next ones, oceancode session pin <id> keeps one`
  );
}

/**
 * Sweep at the first session start of a process (before the stores open that session), and again at
 * a session start once the last sweep is a day old. The session starting and every session this
 * process has open are kept.
 */
export function tapRetention(engine: EngineService, store: SqliteStore, o: { name: string; dbDays: number; log: Logger }): void {
  let last: number | undefined;
  // before the ledger (-50) and storage's own sessionStart taps, so no store has opened a swept session
  engine.hooks.sessionStart.tap({ name: o.name, stage: -100 }, async ({ session }) => {
    const now = Date.now();
    if (last !== undefined && now - last < SWEEP_EVERY_MS) return;
    last = now;
    const keep = store.openSessionIds();
    keep.add(session.info.id);
    if (session.info.parentId) keep.add(session.info.parentId);
    try {
      const r = await sweepRetention(store, { dbDays: o.dbDays, participants: store.retentionParticipants(), keep, now });
      const line = sweepLine(r.removed);
      if (line) o.log.warn(line);
      for (const b of r.busy) o.log.debug(`retention: kept ${b.id}: open in ${b.holder ? `process ${b.holder.pid} on ${b.holder.host}` : "another process"}`);
    } catch (e) {
      // an unusable database is reported once by the store itself
      if (e instanceof StorageOpenError) o.log.debug(`retention: skipped: ${e.message}`);
      else o.log.warn(`retention: sweep skipped: ${(e as Error).message}`);
    }
  });
}
