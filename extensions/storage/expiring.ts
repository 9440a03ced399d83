/**
 * `oceancode sessions --expiring`: what the next retention sweep would remove, from every project, for any
 * store with a RetentionBackend (published through api.ts: it imports types only).
 */
import type { CommandIO } from "../../kernel/api.js";
import type { RetentionParticipant } from "./api.js";
import { busyElsewhere, day, formatBytes, planRetention, type RetentionBackend } from "./retention.js";
import { type ExpiringDeps } from "./api.js";
export { type ExpiringDeps } from "./api.js";

function table(head: string[], cells: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const fmt = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join("  ").trimEnd();
  return [fmt(head), ...cells.map(fmt)].join("\n");
}

export async function expiringCommand(io: CommandIO, json: boolean, store: RetentionBackend, deps: ExpiringDeps): Promise<number> {
  const participants = await deps.participants();
  const policy = [`database.retention_days ${deps.dbDays}`, ...participants.map((p) => `${p.name}.retention_days ${p.days}`)].join(", ");
  const plan = await planRetention(store, { dbDays: deps.dbDays, participants });
  // a session open in another process is kept by the sweep as long as it stays open
  const busy = await busyElsewhere(store, plan.expiring.map((s) => s.id));
  const list = plan.expiring.filter((s) => !busy.has(s.id));
  if (json) {
    io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  if (list.length === 0) io.stdout.write(`nothing expires: no session is idle past retention (${policy})\n`);
  else {
    const cells = list.map((s) => [s.id, day(s.lastActive), s.cwd ?? "(unknown)", formatBytes(s.bytes), s.stores.join("+")]);
    io.stdout.write(`${table(["ID", "LAST ACTIVE", "PROJECT", "SIZE", "REMOVES"], cells)}\n`);
    io.stdout.write(`${list.length} session(s), ${formatBytes(list.reduce((n, s) => n + s.bytes, 0))}, go at the next run's start (${policy}); oceancode session pin <id> keeps one\n`);
    if (deps.vacuum) io.stdout.write("database.vacuum is on: the space they take inside the database goes back to the file system after the sweep\n");
  }
  for (const [id, holder] of busy) io.stderr.write(`oceancode sessions: ${id} is past retention but open in ${holder ?? "another process"}: kept while it is\n`);
  if (plan.pinned) io.stderr.write(`oceancode sessions: ${plan.pinned} pinned session(s) past retention are kept (oceancode session unpin <id> releases one)\n`);
  return 0;
}
