/**
 * The storage contract's optional members that `oceancode sessions`, `migrate` and `doctor --storage`
 * ask of the provider (served by the storage-commands extension): here for oceancode.db.
 */
import type { CommandIO } from "../../kernel/api.js";
import type { MigrationReport, StorageCheck, StorageService } from "./api.js";
import { openDb } from "./db.js";
import { checkDatabaseFile } from "./health.js";
import { LATEST_VERSION } from "./migrations.js";
import { SqliteStore } from "./store.js";
import { expiringCommand, type ExpiringDeps } from "./expiring.js";
import { sqliteRetention } from "./sqlite-retention.js";

export interface AdminOptions {
  /** the command that rebuilds this store's file (named in a damaged-file FAIL line) */
  repair: string;
  retention: ExpiringDeps;
}

type Admin = Required<Pick<StorageService, "doctorChecks" | "migrations" | "at" | "expiring">>;

export function storageAdmin(s: SqliteStore, opts: AdminOptions): Admin {
  const other = (file: string, cmd: string) => new SqliteStore({ file, onError: (m) => process.stderr.write(`oceancode ${cmd}: ${m}\n`) });
  return {
    async doctorChecks(): Promise<StorageCheck[]> {
      const db = s.dbPath;
      const c = await checkDatabaseFile(db);
      const sizes = `${c.bytes} bytes (wal ${c.walBytes} bytes)`;
      switch (c.status) {
        case "absent":
          return [{ status: "info", check: `storage ${db}`, detail: c.detail }];
        case "ok":
          return [{ status: "ok", check: `storage ${db}`, detail: `${sizes}, quick_check ok, schema v${c.schema ?? 0}, ${c.sessions ?? 0} session(s)` }];
        case "unreadable":
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
