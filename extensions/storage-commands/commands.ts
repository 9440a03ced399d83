/**
 * `oceancode migrate` and `oceancode sessions`, over whichever extension provides the "storage" service:
 * they read through the storage contract (extensions/storage/api.ts) only, so a replacement store
 * (`extensions.replace: {"storage": "my-store"}`) serves them too.
 */
import { parseArgs } from "node:util";
import path from "node:path";
import type { CommandIO } from "../../kernel/api.js";
import type { SessionSummary, StorageService } from "../storage/api.js";

export const MIGRATE_USAGE = "usage: oceancode migrate [--db <path>]";
export const SESSIONS_USAGE = "usage: oceancode sessions [--json] [--all] [--limit <n>] [--expiring] [--db <path>] [--directory <dir>]";

function usageError(io: CommandIO, cmd: string, e: unknown, usage: string): number {
  io.stderr.write(`oceancode ${cmd}: ${(e as Error).message}\n${usage}\n`);
  return 2;
}

/** Who serves the storage contract, for messages: the bundled store names nothing. */
export interface StorageProvider {
  /** the providing extension's id */
  id: string;
  storage(): StorageService;
}

export async function migrateCommand(argv: string[], io: CommandIO, p: StorageProvider): Promise<number> {
  let values: { db?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, options: { db: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    return usageError(io, "migrate", e, MIGRATE_USAGE);
  }
  const storage = p.storage();
  const m = storage.migrations;
  if (values.help) {
    io.stdout.write(
      m
        ? `${MIGRATE_USAGE}\nApply pending schema migrations to ${m.target} (schema v${m.latest}).\n`
        : `${MIGRATE_USAGE}\nApply pending schema migrations to the store (the storage provider '${p.id}' has none).\n`,
    );
    return 0;
  }
  if (!m) {
    io.stdout.write(`the storage provider '${p.id}' has no migrations: nothing to apply\nMIGRATE_OK version=none applied=0\n`);
    return 0;
  }
  let r;
  try {
    r = await m.apply(values.db ? path.resolve(values.db) : undefined);
  } catch (e) {
    io.stderr.write(`oceancode migrate: ${(e as Error).message}\n`);
    return 1;
  }
  if (r.applied.length === 0) {
    io.stdout.write(`${r.location}: schema v${r.to} is up to date\nMIGRATE_OK version=${r.to} applied=0\n`);
    return 0;
  }
  const lines = [`${r.location}: schema v${r.from} -> v${r.to}`];
  for (const a of r.applied) lines.push(`  applied ${a.version}: ${a.summary}`);
  lines.push(`MIGRATE_OK version=${r.to} applied=${r.applied.length}`);
  io.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

function when(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function sessionsTable(list: SessionSummary[], showCwd: boolean): string {
  const head = ["ID", "PIN", "UPDATED", "TURNS", "MODEL", ...(showCwd ? ["DIRECTORY"] : []), "TITLE"];
  const cells = list.map((s) => [s.id, s.pinned ? "*" : "", when(s.updatedAt), String(s.turns), s.model, ...(showCwd ? [s.cwd] : []), s.title ?? ""]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const fmt = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join("  ").trimEnd();
  return [fmt(head), ...cells.map(fmt)].join("\n");
}

export async function sessionsCommand(argv: string[], io: CommandIO, p: StorageProvider): Promise<number> {
  let values: { json?: boolean; all?: boolean; limit?: string; db?: string; help?: boolean; expiring?: boolean };
  try {
    values = parseArgs({
      args: argv,
      options: { json: { type: "boolean" }, all: { type: "boolean" }, limit: { type: "string" }, db: { type: "string" }, help: { type: "boolean", short: "h" }, expiring: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    return usageError(io, "sessions", e, SESSIONS_USAGE);
  }
  if (values.help) {
    io.stdout.write(
      `${SESSIONS_USAGE}\nList this project's sessions, newest first (--all: every project; PIN * = kept by retention).\n` +
        `--expiring: what the next retention sweep removes, from every project (id, last active, project, size).\n`,
    );
    return 0;
  }
  const storage = p.storage();
  const location = values.db ? path.resolve(values.db) : undefined;
  if (location && !storage.at) {
    io.stderr.write(`oceancode sessions: --db: the storage provider '${p.id}' cannot open another location\n`);
    return 1;
  }
  if (values.expiring) {
    if (values.limit !== undefined) return usageError(io, "sessions", new Error("--limit does not go with --expiring (it lists everything the sweep would remove)"), SESSIONS_USAGE);
    if (!storage.expiring) {
      io.stderr.write("oceancode sessions --expiring: retention is not available here\n");
      return 1;
    }
    try {
      return await storage.expiring(io, { json: values.json === true, ...(location ? { location } : {}) });
    } catch (e) {
      io.stderr.write(`oceancode sessions: ${(e as Error).message}\n`);
      return 1;
    }
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) return usageError(io, "sessions", new Error(`--limit must be a positive whole number, got '${values.limit}'`), SESSIONS_USAGE);
  let list: SessionSummary[];
  try {
    const opts = { ...(values.all ? {} : { cwd: io.project }), limit };
    if (location) {
      const own = storage.at!(location);
      try {
        list = await own.listSessions(opts);
      } finally {
        own.close();
      }
    } else {
      await storage.settle();
      list = await storage.listSessions(opts);
    }
  } catch (e) {
    io.stderr.write(`oceancode sessions: ${(e as Error).message}\n`);
    return 1;
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    return 0;
  }
  if (list.length === 0) {
    io.stdout.write(values.all ? "no sessions yet\n" : `no sessions for ${io.project} (oceancode sessions --all lists every project)\n`);
    return 0;
  }
  io.stdout.write(`${sessionsTable(list, values.all === true)}\n`);
  return 0;
}
