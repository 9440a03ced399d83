/**
 * What `oceancode migrate`, `session pin|unpin` and `oceancode doctor --storage` (served by
 * storage-commands) ask of the storage provider, here for PostgreSQL. doctor never migrates or writes: it
 * reads the version table. Pins go to the `pins` table at once (the schema is migrated first).
 * `sessions --expiring` is the bundled store's retention engine over this store's backend (retention.ts).
 */
import { type ExpiringDeps, type MigrationReport, type StorageCheck, type StorageService } from "../storage/api.js";
import { expiringCommand, participantFigures } from "../storage/kit.js";
import { pgFigures, pgOrphans } from "./doctor.js";
import { LOCK_NAMESPACE } from "./lock.js";
import { LATEST_VERSION, readVersion } from "./migrations.js";
import { pgRetention } from "./retention.js";
import type { PgStore } from "./store.js";
import { PgMigrateDb } from "./errors.js";

type Admin = Required<Pick<StorageService, "doctorChecks" | "migrations" | "pins" | "expiring" | "orphans" | "figures">>;

export function pgAdmin(s: PgStore, retention: ExpiringDeps, vacuum = false): Admin {
  return {
    orphans: () => pgOrphans(s),
    async figures() {
      const participants = await retention.participants();
      return pgFigures(s, retention.dbDays, participants, vacuum, participantFigures(participants));
    },
    async doctorChecks(): Promise<StorageCheck[]> {
      const check = `storage ${s.dbPath}`;
      let c;
      try {
        c = await s.client("oceancode doctor");
      } catch (e) {
        const why = s.describe(e).replace(`${s.dbPath}: `, "");
        const hint = /certificate|self.signed|altnames/i.test(why)
          ? "the server's TLS certificate is not one this URL trusts: add sslrootcert=<CA file> to storage.url, or check that this is your server"
          : "check storage.url / OC_DATABASE_URL and that the server is up";
        return [{ status: "FAIL", check, detail: `cannot connect (${why}); ${hint}` }];
      }
      try {
        const info = (await c.query(`SELECT current_setting('server_version') AS v, (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl`)).rows[0] as { v: string; ssl: boolean | null };
        const version = await readVersion(c);
        const server = `PostgreSQL ${info.v}, TLS ${info.ssl ? "on" : "off"}`;
        if (version === 0) return [{ status: "info", check, detail: `${server}, no oceancode schema yet (created at the first session, or by oceancode migrate)` }];
        if (version > LATEST_VERSION) return [{ status: "FAIL", check, detail: `${server}, schema v${version} is newer than this oceancode understands (up to ${LATEST_VERSION}); upgrade oceancode` }];
        const n = Number(((await c.query(`SELECT count(*) AS n FROM sessions`)).rows[0] as { n: string }).n);
        const open = Number(
          ((await c.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objsubid = 2`, [LOCK_NAMESPACE])).rows[0] as { n: string }).n,
        );
        const behind = version < LATEST_VERSION ? ` (v${LATEST_VERSION} at the next run, or oceancode migrate)` : "";
        return [
          { status: "ok", check, detail: `${server}, schema v${version}${behind}, ${n} session(s)` },
          { status: "info", check: "storage session locks", detail: `${open} session(s) open in some process (advisory locks)` },
        ];
      } catch (e) {
        return [{ status: "FAIL", check, detail: s.describe(e).replace(`${s.dbPath}: `, "") }];
      } finally {
        await c.end().catch(() => undefined);
      }
    },
    migrations: {
      latest: LATEST_VERSION,
      target: "the PostgreSQL database of storage.url",
      async apply(location?: string): Promise<MigrationReport> {
        if (location !== undefined) {
          throw PgMigrateDb({ url: s.dbPath });
        }
        const m = await s.migrateNow();
        return { location: s.dbPath, from: m.from, to: m.to, applied: m.applied };
      },
    },
    pins: {
      // a session only its ledger still holds can be pinned too (its rows went under a shorter retention)
      known: async (id) => (await s.atOnce((c) => c.query("SELECT 1 FROM sessions WHERE id = $1", [id]).then((r) => r.rowCount === 1))) || (await retention.participants()).some((p) => p.has(id)),
      pin: (id) => s.atOnce((c) => c.query("INSERT INTO pins (session_id, pinned_at) VALUES ($1, $2) ON CONFLICT (session_id) DO NOTHING", [id, Date.now()]).then((r) => r.rowCount === 1)),
      unpin: (id) => s.atOnce((c) => c.query("DELETE FROM pins WHERE session_id = $1", [id]).then((r) => r.rowCount === 1)),
    },
    // `--db` never reaches here: storage-commands refuses it for a store without `at`
    expiring: (io, o) => expiringCommand(io, o.json, pgRetention(s), retention),
  };
}
