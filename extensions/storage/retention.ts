/**
 * Retention: one policy for every project, one engine for every store. A session idle longer than
 * `database.retention_days` loses its rows in the store's database; each participant (the ledger) removes
 * its own copy after its own days, counted from the same last activity. Never swept: pinned sessions,
 * sessions open in this process, and sessions whose lock another process holds (try-lock around each
 * removal). A sweep that removed anything says so in one warn line; one that removed nothing says nothing.
 *
 * The engine knows a store only through RetentionBackend (oceancode.db: sqlite-retention.ts; PostgreSQL:
 * storage-postgres). Published through api.ts, so this module imports types only.
 */
import type { Logger } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import type { ExpiringSession, RetentionParticipant } from "./api.js";
import { type TapRetentionOptions, type SweepReport, type RetentionPolicy, type RetentionPlan, type RetentionBackend } from "./api.js";
export { DEFAULT_RETENTION_DAYS, type RetentionBackend, type RetentionLock, type RetentionPlan, type RetentionPolicy, type SweepReport, type TapRetentionOptions } from "./api.js";
const DAY_MS = 86_400_000;
/** a long-lived process (pager, serve) sweeps again at a session start once the last sweep is this old */
export const SWEEP_EVERY_MS = DAY_MS;

type Verdict = { kind: "expiring"; session: ExpiringSession } | { kind: "pinned" } | undefined;

/** Judges a session from fresh reads (also used under its lock, just before removing it). */
async function judge(store: RetentionBackend, policy: RetentionPolicy, now: number, id: string): Promise<Verdict> {
  if (policy.keep?.has(id)) return undefined;
  const row = await store.session(id);
  const holders = policy.participants.filter((p) => p.has(id));
  if (!row && holders.length === 0) return undefined;
  let lastActive = row?.lastActive ?? 0;
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
  if (await store.pinned(id)) return { kind: "pinned" };
  let bytes = dbGoes ? await store.payloadBytes(id) : 0;
  for (const p of goes) bytes += p.bytes(id);
  const stores = [...(dbGoes ? ["database"] : []), ...goes.map((p) => p.name)];
  const keeps = [...(row && !dbGoes ? ["database"] : []), ...holders.filter((p) => !goes.includes(p)).map((p) => p.name)];
  return { kind: "expiring", session: { id, ...(cwd ? { cwd } : {}), lastActive, bytes, stores, ...(keeps.length ? { keeps } : {}) } };
}

/** What a sweep now would remove (oldest first), without removing anything. */
export async function planRetention(store: RetentionBackend, policy: RetentionPolicy): Promise<RetentionPlan> {
  const now = policy.now ?? Date.now();
  const days = [policy.dbDays, ...policy.participants.map((p) => p.days)].filter((d) => d > 0);
  if (days.length === 0) return { expiring: [], pinned: 0 };
  await store.settle().catch(() => undefined);
  // only sessions idle past the shortest retention can expire; the participants' own ids cover the
  // sessions the database no longer holds
  const cutoff = now - Math.min(...days) * DAY_MS;
  const ids = new Set(await store.idleBefore(cutoff));
  for (const p of policy.participants) if (p.days > 0) for (const id of p.ids()) ids.add(id);
  const plan: RetentionPlan = { expiring: [], pinned: 0 };
  for (const id of ids) {
    const v = await judge(store, policy, now, id);
    if (v?.kind === "pinned") plan.pinned++;
    else if (v) plan.expiring.push(v.session);
  }
  plan.expiring.sort((a, b) => a.lastActive - b.lastActive || (a.id < b.id ? -1 : 1));
  return plan;
}

/**
 * Remove what the plan names, each session under its lock and judged again under it: one resumed, pinned
 * or removed by another sweeper (another process, another instance of a fleet) since the plan is left alone.
 */
export async function sweepRetention(store: RetentionBackend, policy: RetentionPolicy): Promise<SweepReport> {
  const plan = await planRetention(store, policy);
  const report: SweepReport = { removed: [], busy: [] };
  const now = policy.now ?? Date.now();
  for (const s of plan.expiring) {
    const lock = await store.tryLock(s.id);
    if ("busy" in lock) {
      report.busy.push({ id: s.id, ...(lock.holder ? { holder: lock.holder } : {}) });
      continue;
    }
    try {
      await store.settle().catch(() => undefined);
      const v = await judge(store, policy, now, s.id);
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

/** Which sessions another process holds open right now (for --expiring: the sweep would keep them), with their holder when known. */
export async function busyElsewhere(store: RetentionBackend, ids: readonly string[]): Promise<Map<string, string | undefined>> {
  const busy = new Map<string, string | undefined>();
  for (const id of ids) {
    const lock = await store.tryLock(id);
    if ("busy" in lock) busy.set(id, lock.holder);
    else await lock.release();
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
export function tapRetention(engine: EngineService, store: RetentionBackend, o: TapRetentionOptions): void {
  let last: number | undefined;
  // before the ledger (-50) and storage's own sessionStart taps, so no store has opened a swept session
  engine.hooks.sessionStart.tap({ name: o.name, stage: "retain" }, async ({ session }) => {
    const now = Date.now();
    if (last !== undefined && now - last < SWEEP_EVERY_MS) return;
    last = now;
    const keep = o.openSessionIds();
    keep.add(session.info.id);
    if (session.info.parentId) keep.add(session.info.parentId);
    try {
      const r = await sweepRetention(store, { dbDays: o.dbDays, participants: o.participants(), keep, now });
      const line = sweepLine(r.removed);
      if (line) o.log.warn(line);
      for (const b of r.busy) o.log.debug(`retention: kept ${b.id}: open in ${b.holder ?? "another process"}`);
      if (o.afterSweep) await o.afterSweep(r).catch((e: unknown) => o.log.warn(`vacuum: skipped: ${(e as Error).message}`));
    } catch (e) {
      // an unusable database is reported once by the store itself
      if (store.reportsItself?.(e)) o.log.debug(`retention: skipped: ${(e as Error).message}`);
      else o.log.warn(`retention: sweep skipped: ${(e as Error).message}`);
    }
  });
}
