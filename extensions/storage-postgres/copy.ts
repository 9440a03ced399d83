/**
 * `oceancode storage copy --from <sqlite db> [--to <url>]`: a user's history from oceancode.db into
 * PostgreSQL: sessions, rows, events and pins. The SQLite file is opened read-only; the target is migrated
 * first. Each session goes in one transaction (its row, then its rows and events in chunks), and every
 * insert is ON CONFLICT DO NOTHING keyed as the tables are ((session, seq) for rows and events), so a copy
 * that is interrupted is simply run again: what is there is counted as skipped, the rest goes over.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import type { CommandIO } from "../../kernel/api.js";
import type { SessionDbRow } from "../storage/api.js";
import { redactText } from "./kit/shared.js";
import { redactUrl } from "../obs/kit.js";
import { migrate } from "./migrations.js";
import { PgCopyNotOceancode } from "./errors.js";
import { SchemaTooNew } from "../storage/kit.js";

export const STORAGE_USAGE = "usage: oceancode storage copy --from <sqlite db> [--to <postgres url>]";
const CHUNK = 500;
/** a running copy prints its progress every second, and every 500 sessions */
const PROGRESS_MS = 1_000;
const PROGRESS_EVERY = 500;
/** the oceancode.db schema versions this copy reads (extensions/storage/migrations.ts) */
const SQLITE_KNOWN = 3;

export interface CopyCounts {
  sessions: number;
  rows: number;
  events: number;
  pins: number;
  skipped: number;
}

/** `onSession` is told after each session's transaction committed: its place, out of how many */
export async function copySqliteToPostgres(from: string, to: string, onSession?: (done: number, total: number) => void): Promise<CopyCounts> {
  const src = new Database(from, { readonly: true, fileMustExist: true });
  const counts: CopyCounts = { sessions: 0, rows: 0, events: 0, pins: 0, skipped: 0 };
  const dst = new pg.Client({ connectionString: to, application_name: "oceancode storage copy", connectionTimeoutMillis: 10_000 });
  dst.on("error", () => undefined); // a dropped connection fails the query in flight; this keeps it from being an uncaught error
  try {
    const version = src.pragma("user_version", { simple: true }) as number;
    if (version === 0) throw PgCopyNotOceancode({ file: from });
    if (version > SQLITE_KNOWN) throw SchemaTooNew({ where: from, what: "database schema", found: version, supported: SQLITE_KNOWN, remedy: "upgrade oceancode" }, { data: { found: version, supported: SQLITE_KNOWN } });
    await dst.connect();
    await migrate(dst, redactUrl(to));
    // all at once (small): better-sqlite3 runs no other statement while an iterator is open
    const sessions = src.prepare(`SELECT * FROM sessions ORDER BY rowid`).all() as SessionDbRow[];
    const rowsOf = src.prepare(`SELECT seq, turn, step, role, json FROM rows WHERE session_id = ? ORDER BY seq`);
    const eventsOf = src.prepare(`SELECT seq, at, kind, json FROM events WHERE session_id = ? ORDER BY seq`);
    let done = 0;
    for (const s of sessions) {
      await dst.query("BEGIN");
      try {
        const r = await dst.query(
          `INSERT INTO sessions (id, parent_id, cwd, model, title, created_at, updated_at, overrides, totals) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
          [s.id, s.parent_id, s.cwd, s.model, s.title, s.created_at, s.updated_at, s.overrides, s.totals],
        );
        if (r.rowCount === 1) counts.sessions++;
        else counts.skipped++;
        for (const chunk of chunks(rowsOf.iterate(s.id) as IterableIterator<{ seq: number; turn: number; step: number; role: string; json: string }>)) {
          const ins = await dst.query(
            `INSERT INTO rows (session_id, seq, turn, step, role, json)
             SELECT $1, u.* FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[]) AS u ON CONFLICT (session_id, seq) DO NOTHING`,
            [s.id, chunk.map((x) => x.seq), chunk.map((x) => x.turn), chunk.map((x) => x.step), chunk.map((x) => x.role), chunk.map((x) => x.json)],
          );
          counts.rows += ins.rowCount ?? 0;
          counts.skipped += chunk.length - (ins.rowCount ?? 0);
        }
        for (const chunk of chunks(eventsOf.iterate(s.id) as IterableIterator<{ seq: number; at: number; kind: string; json: string }>)) {
          const ins = await dst.query(
            `INSERT INTO events (session_id, seq, at, kind, json)
             SELECT $1, u.* FROM unnest($2::int[], $3::bigint[], $4::text[], $5::text[]) AS u ON CONFLICT (session_id, seq) DO NOTHING`,
            [s.id, chunk.map((x) => x.seq), chunk.map((x) => x.at), chunk.map((x) => x.kind), chunk.map((x) => x.json)],
          );
          counts.events += ins.rowCount ?? 0;
          counts.skipped += chunk.length - (ins.rowCount ?? 0);
        }
        await dst.query("COMMIT");
        onSession?.(++done, sessions.length);
      } catch (e) {
        await dst.query("ROLLBACK").catch(() => undefined);
        throw e;
      }
    }
    const hasPins = src.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pins'`).get() !== undefined;
    if (hasPins) {
      const pins = src.prepare(`SELECT session_id, pinned_at FROM pins`).all() as Array<{ session_id: string; pinned_at: number }>;
      for (const chunk of chunks(pins[Symbol.iterator]())) {
        const ins = await dst.query(`INSERT INTO pins (session_id, pinned_at) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT (session_id) DO NOTHING`, [
          chunk.map((p) => p.session_id),
          chunk.map((p) => p.pinned_at),
        ]);
        counts.pins += ins.rowCount ?? 0;
        counts.skipped += chunk.length - (ins.rowCount ?? 0);
      }
    }
    return counts;
  } finally {
    src.close();
    await dst.end().catch(() => undefined);
  }
}

function* chunks<T>(it: Iterator<T> | IterableIterator<T>): Generator<T[]> {
  let buf: T[] = [];
  for (let r = it.next(); !r.done; r = it.next()) {
    buf.push(r.value);
    if (buf.length >= CHUNK) {
      yield buf;
      buf = [];
    }
  }
  if (buf.length) yield buf;
}

export interface CopyDeps {
  /** the configured URL (storage.url / OC_DATABASE_URL), the default --to */
  url: string | undefined;
}

export async function storageCommand(argv: string[], io: CommandIO, deps: CopyDeps): Promise<number> {
  const bad = (m: string) => {
    io.stderr.write(`oceancode storage: ${m}\n${STORAGE_USAGE}\n`);
    return 2;
  };
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h") {
    io.stdout.write(`${STORAGE_USAGE}\nCopy sessions, rows, events and pins from an oceancode.db into PostgreSQL (default --to: storage.url / $OC_DATABASE_URL). Run it again to resume: what is there already is skipped.\n`);
    return 0;
  }
  if (sub === "repair") {
    io.stderr.write("oceancode storage repair rebuilds an oceancode.db (the bundled SQLite store); with storage-postgres the sessions are in PostgreSQL: use its own backups\n");
    return 1;
  }
  if (sub !== "copy") return bad(sub === undefined ? "a subcommand is required (copy)" : `unknown subcommand '${sub}'`);
  let values: { from?: string; to?: string };
  try {
    values = parseArgs({ args: rest, options: { from: { type: "string" }, to: { type: "string" } }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    return bad(redactUrl((e as Error).message));
  }
  if (!values.from) return bad("--from <sqlite db> is required");
  const to = values.to ?? deps.url;
  if (!to) return bad("no target: pass --to <postgres url>, or set storage.url / $OC_DATABASE_URL");
  if (!/^postgres(ql)?:\/\//i.test(to)) return bad(`--to must be a postgres:// or postgresql:// URL, got ${redactUrl(to)}`);
  const from = path.resolve(values.from);
  if (!fs.existsSync(from)) {
    io.stderr.write(`oceancode storage copy: ${from}: no such file\n`);
    return 1;
  }
  const shown = redactUrl(to);
  io.stdout.write(`copying ${from} -> ${shown}\n`);
  const t0 = Date.now();
  try {
    // a long copy says how far it is (what is reported is committed: a kill after it keeps it)
    let said = Date.now();
    const c = await copySqliteToPostgres(from, to, (done, total) => {
      if (done < total && (done % PROGRESS_EVERY === 0 || Date.now() - said >= PROGRESS_MS)) {
        said = Date.now();
        io.stdout.write(`copied ${done}/${total} sessions\n`);
      }
    });
    io.stdout.write(`pins: ${c.pins} copied\nSTORAGE_COPIED sessions=${c.sessions} rows=${c.rows} events=${c.events} skipped=${c.skipped} ms=${Date.now() - t0}\n`);
    return 0;
  } catch (e) {
    io.stderr.write(`oceancode storage copy: ${redactText(e instanceof Error ? e.message : String(e), to)} (run it again to resume: what was copied is kept and skipped)\n`);
    return 1;
  }
}
