/**
 * Issue 28: on PostgreSQL too, a ledger ahead of the database is caught up on open. A real PostgreSQL
 * loses a session's newest rows (as a restore or a failover loses its newest commits); the next `run -c`
 * says so, writes the rows only the ledger had back to the database in order, and goes on: the database
 * holds every turn, and the ledger's transcript of the turn the database had lost is not cut down.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { globalConfig, oc } from "../../../test/sdk/helpers.js";
import { startPostgres, type TestPostgres } from "../../../test/kit/postgres.js";

let server: TestPostgres;
let sb: Sandbox;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  sb = makeSandbox("oc-pg-reconcile-");
  url = await server.createDatabase(`reconcile_${process.pid}`);
  globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
});
afterAll(() => {
  sb?.cleanup();
  server?.stop();
});

const pgc = (args: string[]) => oc(sb, args, { OC_DATABASE_URL: url });

async function rowsOf(id: string): Promise<Array<{ seq: number; role: string; text?: string }>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(`SELECT seq, role, json FROM rows WHERE session_id = $1 ORDER BY seq`, [id]);
    return (r.rows as Array<{ seq: number; role: string; json: string }>).map((x) => ({ seq: Number(x.seq), role: x.role, text: (JSON.parse(x.json) as { text?: string }).text }));
  } finally {
    await c.end();
  }
}

describe("storage-postgres: the ledger ahead of the database", () => {
  it("run -c catches the database up from the ledger (rows in order, a warning that says so); the transcript is kept whole", async () => {
    const first = pgc(["run", "--model", "scripted/echo", "first question"]);
    expect(first.code, first.stderr).toBe(0);
    const id = /session: (\S+)/.exec(first.stderr)![1]!;
    expect(pgc(["run", "-c", "--model", "scripted/echo", "second question"]).code).toBe(0);
    expect((await rowsOf(id)).map((r) => r.seq)).toEqual([1, 2, 3, 4]);

    // the database loses the second turn's rows; the ledger still has them
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DELETE FROM rows WHERE session_id = $1 AND seq > 2`, [id]);
    await c.end();
    const turn2 = path.join(sb.env.XDG_DATA_HOME!, "oceancode", "session-ledger", id, "transcript", "turn-0002.md");
    expect(fs.readFileSync(turn2, "utf8")).toContain("ok: second question");

    const third = pgc(["run", "-c", "--model", "scripted/echo", "third question"]);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain(`session ${id}: the database held 2 row(s), its ledger 4: the 2 row(s) only the ledger had were written back to the database`);
    const rows = await rowsOf(id);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.filter((r) => r.role === "user").map((r) => r.text)).toEqual(["first question", "second question", "third question"]);
    expect(fs.readFileSync(turn2, "utf8")).toContain("ok: second question");
    // once even, the next open says nothing
    const fourth = pgc(["run", "-c", "--model", "scripted/echo", "fourth"]);
    expect(fourth.code, fourth.stderr).toBe(0);
    expect(fourth.stderr).not.toContain("written back");
  }, 60_000);
});
