/**
 * Set-up shared by the fleet tests: one throwaway PostgreSQL server per file, a fresh database and sandbox
 * per test (storage-postgres selected), `oceancode serve` instances started on it (killed after each test),
 * and direct SQL on the test's database for what the instances left there.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startPostgres, type TestPostgres } from "../../../test/kit/postgres.js";
import { globalConfig } from "../../../test/sdk/helpers.js";
import { startServe, type Served } from "../../serve/test/serve-helpers.js";

export type Health = { ok: boolean; instance: string; claims: string[]; sessions: number };
export type StoredRow = { seq: number; turn: number; step: number; role: string; json: string };

export interface FleetFixture {
  /** the PostgreSQL server (its password: security assertions) */
  readonly server: TestPostgres;
  readonly sb: Sandbox;
  /** this test's database */
  readonly url: string;
  /** start an instance named `name` (OC_INSTANCE_ID) on this test's database; `env` adds to or overrides the defaults */
  start(name: string, env?: NodeJS.ProcessEnv): Promise<Served>;
  /** kill -9 an instance and forget it */
  kill(s: Served): Promise<void>;
  /** one query on this test's database (a connection of its own) */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** the session's stored rows, waited for until `done` holds (the holder writes behind the step) */
  rows(sessionId: string, done: (rows: StoredRow[]) => boolean): Promise<StoredRow[]>;
}

/** Register the hooks in the calling test file; the fixture's fields are valid inside tests. */
export function fleetFixture(prefix = "fleet"): FleetFixture {
  let server: TestPostgres | undefined;
  let sb: Sandbox | undefined;
  let url = "";
  let n = 0;
  let running: Served[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());
  beforeEach(async () => {
    sb = makeSandbox(`oc-${prefix}-`);
    url = await server!.createDatabase(`${prefix}_${process.pid}_${++n}`);
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
  });
  afterEach(async () => {
    for (const s of running) await s.stop("SIGKILL");
    running = [];
    sb?.cleanup();
  });
  const sql = async <T,>(text: string, params?: unknown[]): Promise<T[]> => {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      return (await db.query(text, params)).rows as T[];
    } finally {
      await db.end();
    }
  };
  return {
    get server() {
      return server!;
    },
    get sb() {
      return sb!;
    },
    get url() {
      return url;
    },
    async start(name, env = {}) {
      const s = await startServe(["--directory", sb!.project], { env: { ...sb!.env, OC_DATABASE_URL: url, OC_INSTANCE_ID: name, OC_FLEET_SWEEP_MS: "200", ...env } });
      running.push(s);
      return s;
    },
    async kill(s) {
      await s.stop("SIGKILL");
      running = running.filter((r) => r !== s);
    },
    sql,
    async rows(sessionId, done) {
      let rows: StoredRow[] = [];
      for (let i = 0; i < 50; i++) {
        rows = await sql<StoredRow>("SELECT seq, turn, step, role, json FROM rows WHERE session_id = $1 ORDER BY seq", [sessionId]).catch(() => []);
        if (done(rows)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return rows;
    },
  };
}

/** Rows numbered 1..n with no hole, (turn, step) never going back, no assistant step twice: what a takeover must keep. */
export function checkRowOrder(rows: StoredRow[], where: string): string[] {
  const problems: string[] = [];
  rows.forEach((r, i) => {
    if (r.seq !== i + 1) problems.push(`${where}: row ${i + 1} has seq ${r.seq}`);
  });
  for (let i = 1; i < rows.length; i++) {
    const [p, q] = [rows[i - 1]!, rows[i]!];
    if (!(q.turn > p.turn || (q.turn === p.turn && q.step >= p.step))) problems.push(`${where}: row ${q.seq} (${q.turn}.${q.step}) after ${p.seq} (${p.turn}.${p.step})`);
  }
  const steps = rows.filter((r) => r.role === "assistant").map((r) => `${r.turn}.${r.step}`);
  if (new Set(steps).size !== steps.length) problems.push(`${where}: an assistant step twice: ${steps.join(" ")}`);
  return problems;
}
