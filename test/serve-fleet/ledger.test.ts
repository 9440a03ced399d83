/**
 * The ledger in fleet mode: every instance points `ledger.dir` at one shared folder (each has its own data
 * directory), the instance holding a session writes its files there, a takeover continues them, and
 * `oceancode ledger rebuild --all` writes the whole folder again from the database alone after it is lost.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../helpers/cli.js";
import { startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { globalConfig } from "../sdk/helpers.js";
import { readSidecar, SIDECAR_FILE } from "../../extensions/ledger/sidecar.js";
import { SseReader, startServe, turnEndOf, type Served } from "../serve/serve-helpers.js";

let server: TestPostgres;
let sb: Sandbox;
let url: string;
let shared: string;
let n = 0;
let fleet: Served[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());
beforeEach(async () => {
  sb = makeSandbox("oc-fleet-ledger-");
  url = await server.createDatabase(`fleet_ledger_${process.pid}_${++n}`);
  shared = path.join(sb.home, "shared-ledger");
  globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } }, ledger: { dir: shared } });
});
afterEach(async () => {
  for (const s of fleet) await s.stop("SIGKILL");
  fleet = [];
  sb.cleanup();
});

/** each instance its own data directory: only the configured root is shared */
const dataDir = (name: string) => path.join(sb.home, `data-${name}`);
const envOf = (name: string) => ({ ...sb.env, OC_DATABASE_URL: url, OC_INSTANCE_ID: name, OC_FLEET_SWEEP_MS: "200", XDG_DATA_HOME: dataDir(name) });
const start = async (name: string) => {
  const s = await startServe(["--directory", sb.project], { env: envOf(name) });
  fleet.push(s);
  return s;
};

type DbRow = { seq: number; turn: number; role: string; json: string };
/** the rows the ledger's rows.jsonl holds (resume markers applied), by seq */
const sidecarSeqs = async (dir: string) => [...((await readSidecar(path.join(dir, SIDECAR_FILE)))?.rows.keys() ?? [])].sort((a, b) => a - b);
const transcripts = (dir: string) =>
  fs
    .readdirSync(path.join(dir, "transcript"))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, "transcript", f), "utf8"))
    .join("\n");

async function until<T>(what: string, f: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the ledger of a fleet", () => {
  it("the holder writes under the shared ledger.dir, a takeover continues it, and `ledger rebuild --all` restores a lost root from the database alone", async () => {
    sb.write("a.txt", "alpha\n");
    sb.write("long.json", JSON.stringify({ steps: [{ repeat: 6, text: "step {{n}}", delay_ms: 400, tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] }, { text: "finished" }] }));
    const [a, b, c] = [await start("inst-a"), await start("inst-b"), await start("inst-c")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/long.json" })).body.id;
    const echo = (await b.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    const sse = await SseReader.open(`${c.url}/event`);
    expect((await c.api("POST", `/session/${echo}/prompt`, { text: "a quiet one" })).status).toBe(202);
    expect((await b.api("POST", `/session/${id}/prompt`, { text: "do the long thing" })).status).toBe(202);
    await sse.waitFor((e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === 2);
    await a.stop("SIGKILL");
    fleet = fleet.filter((s) => s !== a);
    await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "finished", 30_000);
    await sse.waitFor((e) => turnEndOf(echo)(e), 10_000);
    sse.close();

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    let rows: DbRow[];
    try {
      rows = await until("the takeover turn committed", async () => {
        const r = (await db.query("SELECT seq, turn, role, json FROM rows WHERE session_id = $1 ORDER BY seq", [id])).rows as DbRow[];
        return r.some((x) => x.role === "assistant" && x.json.includes('"finished"')) ? r : undefined;
      });
    } finally {
      await db.end();
    }
    // stop the live instances cleanly: their ledgers settle
    for (const s of fleet) await s.stop("SIGTERM");
    fleet = [];

    const dir = path.join(shared, id);
    // written in the shared root only: no instance's own data directory holds a ledger of it
    for (const name of ["inst-a", "inst-b", "inst-c"]) expect(fs.existsSync(path.join(dataDir(name), "oceancode", "session-ledger", id)), name).toBe(false);
    expect(fs.existsSync(path.join(shared, echo, "SESSION.md"))).toBe(true);
    // A's turn (cut short) and the taker's continuation are both in the one folder, every committed row in rows.jsonl
    expect(await sidecarSeqs(dir)).toEqual(rows.map((r) => r.seq));
    const live = transcripts(dir);
    expect(live).toContain("do the long thing");
    expect(live).toContain("finished");
    // the taker closed A's cut-short turn in A's transcript before continuing in its own
    expect(live).toMatch(/### crashed · after seq \d+/);
    expect(new Set(rows.map((r) => r.turn)).size).toBe(2);
    const turnFiles = fs.readdirSync(path.join(dir, "transcript")).sort();
    expect(turnFiles).toEqual(["turn-0001.md", "turn-0002.md"]);

    // the shared folder is lost: one command writes it again from PostgreSQL
    fs.rmSync(shared, { recursive: true, force: true });
    const r = await runCliAsync(["--directory", sb.project, "ledger", "rebuild", "--all"], { cwd: sb.project, env: envOf("admin") });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`LEDGER_REBUILT ${dir} turns=2 rows=${rows.length}`);
    expect(r.stdout).toMatch(new RegExp(`LEDGER_REBUILT ${path.join(shared, echo).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} turns=1 rows=\\d+`));
    expect(r.stdout).toMatch(/LEDGER_REBUILT_ALL sessions=2 rows=\d+\n$/);
    expect(r.stdout + r.stderr).not.toContain(server.password);
    expect(await sidecarSeqs(dir)).toEqual(rows.map((x) => x.seq));
    expect(fs.readdirSync(path.join(dir, "transcript")).sort()).toEqual(turnFiles);
    const rebuilt = transcripts(dir);
    for (const text of ["do the long thing", "step 1", "step 2", "finished", "alpha"]) expect(rebuilt, text).toContain(text);
    expect(fs.existsSync(path.join(dir, "SESSION.md"))).toBe(true);
    expect(fs.existsSync(path.join(shared, echo, "SESSION.md"))).toBe(true);

    // usage: --all takes no id and no --merge
    const bad = await runCliAsync(["ledger", "rebuild", "--all", id], { cwd: sb.project, env: envOf("admin") });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--all takes no session id");
  }, 120_000);
});
