/**
 * The storage contract's optional members that `oceancode sessions`, `migrate` and `doctor --storage`
 * ask of the provider (served by the storage-commands extension): here for oceancode.db.
 */
import type { CommandIO } from "../../kernel/api.js";
import type { MigrationReport, RecoverySource, StorageCheck, StorageService } from "./api.js";
import { openDb } from "./db.js";
import { checkDatabaseFile } from "./health.js";
import { LATEST_VERSION } from "./migrations.js";
import { SqliteStore } from "./store.js";
import { expiringCommand, type ExpiringDeps } from "./expiring.js";
import { sqliteRetention } from "./sqlite-retention.js";
import { findMismatches, type Mismatch } from "./reconcile-db.js";

export interface AdminOptions {
  /** the command that rebuilds this store's file (named in a damaged-file FAIL line) */
  repair: string;
  retention: ExpiringDeps;
  /** the recovery sources (activating the ledger), for the ledger-against-database check */
  sources(): Promise<readonly RecoverySource[]>;
  /** database.retention_days (a ledger-only session idle past it aged out of the database) */
  retentionDays: number;
  /** where another store's errors are logged (the extension's logger) */
  log: (msg: string) => void;
}

function mismatchLine(m: Mismatch, repair: string): StorageCheck {
  const db = m.inDb ? `the database ${m.dbRows} row(s) (up to seq ${m.dbLast})` : "the database does not have the session";
  const what = `session ${m.id}: its ${m.source} holds rows up to seq ${m.sourceLast}, ${db}`;
  if (m.openIn) return { status: "info", check: `storage ${m.source}`, detail: `${what}; it is open in ${m.openIn}, whose writes may still be settling` };
  const also = m.inDb ? " (reopening the session does too)" : "";
  return { status: "FAIL", check: `storage ${m.source}`, detail: `${what}: the database lost writes; \`${repair}\` writes them back from the ${m.source}${also}` };
}

/** The ledger against the database: one line per session it holds more of (at most 10, then a count). */
async function ledgerChecks(file: string, opts: AdminOptions): Promise<StorageCheck[]> {
  const sources = await opts.sources();
  if (!sources.some((x) => x.lastSeq && x.ids)) return [];
  const found = await findMismatches(file, sources, opts.retentionDays);
  const names = sources.map((x) => x.name).join(", ");
  if (!found.length) return [{ status: "ok", check: `storage ${names}`, detail: "the database holds every row the ledger holds" }];
  const lines = found.slice(0, 10).map((m) => mismatchLine(m, opts.repair));
  if (found.length > 10) lines.push({ status: "FAIL", check: `storage ${names}`, detail: `and ${found.length - 10} more session(s) like these` });
  return lines;
}

type Admin = Required<Pick<StorageService, "doctorChecks" | "migrations" | "at" | "expiring">>;

export function storageAdmin(s: SqliteStore, opts: AdminOptions): Admin {
  const other = (file: string, cmd: string) => new SqliteStore({ file, onError: (m) => opts.log(`${cmd}: ${m}`) });
  return {
    async doctorChecks(): Promise<StorageCheck[]> {
      const db = s.dbPath;
      const c = await checkDatabaseFile(db);
      const sizes = `${c.bytes} bytes (wal ${c.walBytes} bytes)`;
      switch (c.status) {
        case "absent":
          return [{ status: "info", check: `storage ${db}`, detail: c.detail }];
        case "ok":
          return [
            { status: "ok", check: `storage ${db}`, detail: `${sizes}, quick_check ok, schema v${c.schema ?? 0}, ${c.sessions ?? 0} session(s)` },
            ...(await ledgerChecks(db, opts)),
          ];
        case "unreadable":
          if (c.locked) return [{ status: "FAIL", check: `storage ${db}`, detail: `${sizes}, cannot be checked: ${c.detail}` }];
          return [{ status: "FAIL", check: `storage ${db}`, detail: `${sizes}, cannot be checked: ${c.detail}; fix its permissions` }];
        case "damaged":
          return [{ status: "FAIL", check: `storage ${db}`, detail: `${sizes}, damaged (${c.detail}); rebuild it from the session ledger with \`${opts.repair}\` (the damaged file is kept)` }];
      }
    },
    migrations: {
      latest: LATEST_VERSION,
      target: "oceancode.db",
      async apply(location?: string): Promise<MigrationReport> {
        const file = location ?? s.dbPath;
        const opened = openDb(file);
        const m = opened.migration;
        opened.db.close();
        return { location: file, from: m.from, to: m.to, applied: m.applied };
      },
    },
    at: (location: string) => other(location, "sessions"),
    async expiring(io: CommandIO, o: { json: boolean; location?: string }): Promise<number> {
      const own = o.location ? other(o.location, "sessions") : undefined;
      try {
        return await expiringCommand(io, o.json, sqliteRetention(own ?? s), opts.retention);
      } finally {
        own?.close();
      }
    },
  };
}
