/** `oceancode migrate` and `oceancode sessions`: management commands over oceancode.db. */
import { parseArgs } from "node:util";
import path from "node:path";
import type { CommandIO } from "../../kernel/api.js";
import { openDb } from "./db.js";
import { LATEST_VERSION } from "./migrations.js";
import type { SessionSummary } from "./api.js";
import { SqliteStore } from "./store.js";
import { expiringCommand, type ExpiringDeps } from "./expiring.js";

export const MIGRATE_USAGE = "usage: oceancode migrate [--db <path>]";
export const SESSIONS_USAGE = "usage: oceancode sessions [--json] [--all] [--limit <n>] [--expiring] [--db <path>] [--directory <dir>]";

function usageError(io: CommandIO, cmd: string, e: unknown, usage: string): number {
  io.stderr.write(`oceancode ${cmd}: ${(e as Error).message}\n${usage}\n`);
  return 2;
}

/** --db normally arrives as the host's database.path (the CLI takes it globally); accept it here too. */
function dbFile(configured: string, flag: string | undefined): string {
  return flag ? path.resolve(flag) : configured;
}

export async function migrateCommand(argv: string[], io: CommandIO, configured: string): Promise<number> {
  let values: { db?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, options: { db: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    return usageError(io, "migrate", e, MIGRATE_USAGE);
  }
  if (values.help) {
    io.stdout.write(`${MIGRATE_USAGE}\nApply pending schema migrations to oceancode.db (schema v${LATEST_VERSION}).\n`);
    return 0;
  }
  const file = dbFile(configured, values.db);
  let opened;
  try {
    opened = openDb(file);
  } catch (e) {
    io.stderr.write(`oceancode migrate: ${(e as Error).message}\n`);
    return 1;
  }
  const m = opened.migration;
  opened.db.close();
  if (m.applied.length === 0) {
    io.stdout.write(`${file}: schema v${m.to} is up to date\nMIGRATE_OK version=${m.to} applied=0\n`);
    return 0;
  }
  const lines = [`${file}: schema v${m.from} -> v${m.to}`];
  for (const a of m.applied) lines.push(`  applied ${a.version}: ${a.summary}`);
  lines.push(`MIGRATE_OK version=${m.to} applied=${m.applied.length}`);
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

export async function sessionsCommand(argv: string[], io: CommandIO, store: () => SqliteStore, retention?: ExpiringDeps): Promise<number> {
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
  if (values.expiring) {
    if (values.limit !== undefined) return usageError(io, "sessions", new Error("--limit does not go with --expiring (it lists everything the sweep would remove)"), SESSIONS_USAGE);
    if (!retention) {
      io.stderr.write("oceancode sessions --expiring: retention is not available here\n");
      return 1;
    }
    const own = values.db ? new SqliteStore({ file: path.resolve(values.db), onError: (m) => io.stderr.write(`oceancode sessions: ${m}\n`) }) : undefined;
    try {
      return await expiringCommand(io, values.json === true, own ?? store(), retention);
    } catch (e) {
      io.stderr.write(`oceancode sessions: ${(e as Error).message}\n`);
      return 1;
    } finally {
      own?.close();
    }
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) return usageError(io, "sessions", new Error(`--limit must be a positive whole number, got '${values.limit}'`), SESSIONS_USAGE);
  let list: SessionSummary[];
  try {
    if (values.db) {
      const own = new SqliteStore({ file: path.resolve(values.db), onError: (m) => io.stderr.write(`oceancode sessions: ${m}\n`) });
      try {
        list = await own.listSessions({ ...(values.all ? {} : { cwd: io.project }), limit });
      } finally {
        own.close();
      }
    } else list = await store().listSessions({ ...(values.all ? {} : { cwd: io.project }), limit });
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
