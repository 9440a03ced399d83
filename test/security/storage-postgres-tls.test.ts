/**
 * TLS to PostgreSQL as a user configures it in the URL (libpq-style options pass through to node-postgres):
 * verify-full with the right CA connects (doctor says TLS on), and so do a run and a serve instance's own
 * fleet connection; a server whose certificate is not signed by the CA the URL trusts (an impostor, or the
 * system CAs for a private one) is refused before any password is sent, with an error that names the
 * certificate problem and never the password.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { otherCertificateAuthority, startPostgres, type TestPostgres } from "../kit/postgres.js";
import { globalConfig, oc } from "../sdk/helpers.js";
import { startServe } from "../../extensions/serve/test/serve-helpers.js";

let server: TestPostgres;
let sb: Sandbox;
let db: string;
let n = 0;
beforeAll(async () => {
  server = await startPostgres({ tls: true });
});
afterAll(() => server?.stop());
beforeEach(async () => {
  sb = makeSandbox("oc-pg-tls-");
  db = `tls_${process.pid}_${++n}`;
  await server.createDatabase(db);
  globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
});
afterEach(() => sb.cleanup());

const withTls = (query: string) => `${server.url(db)}?${query}`;
const pgc = (args: string[], url: string) => oc(sb, args, { OC_DATABASE_URL: url });

describe("storage-postgres over TLS", () => {
  it("verify-full with the server's CA: doctor says TLS on, a run stores its session; the fleet connection of serve uses TLS too", async () => {
    const url = withTls(`sslmode=verify-full&sslrootcert=${encodeURIComponent(server.caFile!)}`);
    const d = pgc(["doctor", "--storage"], url);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    expect(d.stdout).toMatch(/^(ok|info)\s+storage postgres:\/\/postgres:\*\*\*@.*PostgreSQL [\d.]+.*TLS on/m);
    const r = pgc(["run", "--model", "scripted/echo", "over tls"], url);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(pgc(["sessions", "--json"], url).stdout)).toHaveLength(1);

    const s = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_DATABASE_URL: url, OC_INSTANCE_ID: "tls-a" } });
    try {
      expect((await s.api<{ instance: string }>("GET", "/health")).body.instance).toBe("tls-a");
      const admin = new pg.Client({ connectionString: server.url(db) });
      await admin.connect();
      try {
        const fleet = await admin.query("SELECT s.ssl FROM pg_stat_activity a JOIN pg_stat_ssl s ON s.pid = a.pid WHERE a.application_name LIKE 'oc fleet % tls-a'");
        expect(fleet.rows).toEqual([{ ssl: true }]);
      } finally {
        await admin.end();
      }
    } finally {
      await s.stop("SIGKILL");
    }
  }, 60_000);

  it("a certificate the URL does not trust is refused: another CA's, or the system CAs for a private one; the password is never shown", () => {
    const impostor = withTls(`sslmode=verify-full&sslrootcert=${encodeURIComponent(otherCertificateAuthority(sb.home))}`);
    for (const url of [impostor, withTls("sslmode=verify-full")]) {
      const d = pgc(["doctor", "--storage"], url);
      expect(d.code).not.toBe(0);
      expect(d.stdout).toMatch(/FAIL\s+storage .*cannot connect \(.*(self-signed certificate|unable to verify).*\); the server's TLS certificate is not one this URL trusts: add sslrootcert=<CA file>/i);
      const r = pgc(["run", "--model", "scripted/echo", "must not connect"], url);
      expect(r.code).not.toBe(0);
      for (const out of [d.stdout, d.stderr, r.stdout, r.stderr]) expect(out).not.toContain(server.password);
    }
    // nothing reached the database
    const ok = pgc(["sessions", "--json"], withTls(`sslmode=verify-full&sslrootcert=${encodeURIComponent(server.caFile!)}`));
    expect(JSON.parse(ok.stdout)).toEqual([]);
  }, 60_000);
});
