/**
 * The ledger in fleet mode: every instance points `ledger.dir` at one shared folder (each has its own data
 * directory), the instance holding a session writes its files there, a takeover continues them, and
 * `oceancode ledger rebuild --all` writes the whole folder again from the database alone after it is lost.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../../../test/kit/cli.js";
import { globalConfig } from "../../../test/sdk/helpers.js";
import { readSidecar, SIDECAR_FILE } from "../../ledger/sidecar.js";
import { SseReader, turnEndOf } from "../../serve/test/serve-helpers.js";
import { checkRowOrder, fleetFixture } from "./fleet-helpers.js";

const fx = fleetFixture("fleet_ledger");
/** the one ledger root every instance is configured with */
const shared = () => path.join(fx.sb.home, "shared-ledger");
/** each instance its own data directory: only the configured root is shared */
const dataDir = (name: string) => path.join(fx.sb.home, `data-${name}`);
const envOf = (name: string) => ({ ...fx.sb.env, OC_DATABASE_URL: fx.url, XDG_DATA_HOME: dataDir(name) });
const start = (name: string) => fx.start(name, { XDG_DATA_HOME: dataDir(name) });

/** the rows the ledger's rows.jsonl holds (resume markers applied), by seq */
const sidecarSeqs = async (dir: string) => [...((await readSidecar(path.join(dir, SIDECAR_FILE)))?.rows.keys() ?? [])].sort((a, b) => a - b);
const transcripts = (dir: string) =>
  fs
    .readdirSync(path.join(dir, "transcript"))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, "transcript", f), "utf8"))
    .join("\n");

describe("the ledger of a fleet", () => {
  it("the holder writes under the shared ledger.dir, a takeover continues it, and `ledger rebuild --all` restores a lost root from the database alone", async () => {
    globalConfig(fx.sb, { extensions: { replace: { storage: "storage-postgres" } }, ledger: { dir: shared() } });
    fx.sb.write("a.txt", "alpha\n");
    fx.sb.write("long.json", JSON.stringify({ steps: [{ repeat: 6, text: "step {{n}}", delay_ms: 400, tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] }, { text: "finished" }] }));
    const [a, b, c] = [await start("inst-a"), await start("inst-b"), await start("inst-c")];
    const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/long.json" })).body.id;
    const echo = (await b.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    const sse = await SseReader.open(`${c.url}/event`);
    expect((await c.api("POST", `/session/${echo}/prompt`, { text: "a quiet one" })).status).toBe(202);
    expect((await b.api("POST", `/session/${id}/prompt`, { text: "do the long thing" })).status).toBe(202);
    await sse.waitFor((e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === 2);
    await fx.kill(a);
    await sse.waitFor((e) => turnEndOf(id)(e) && e.data.text === "finished", 30_000);
    await sse.waitFor((e) => turnEndOf(echo)(e), 10_000);
    sse.close();

    const rows = await fx.rows(id, (r) => r.some((x) => x.role === "assistant" && x.json.includes('"finished"')));
    expect(rows.some((x) => x.json.includes('"finished"'))).toBe(true);
    expect(checkRowOrder(rows, id)).toEqual([]);
    // stop the live instances cleanly: their ledgers settle
    await b.stop("SIGTERM");
    await c.stop("SIGTERM");

    const dir = path.join(shared(), id);
    // written in the shared root only: no instance's own data directory holds a ledger of it
    for (const name of ["inst-a", "inst-b", "inst-c"]) expect(fs.existsSync(path.join(dataDir(name), "oceancode", "session-ledger", id)), name).toBe(false);
    expect(fs.existsSync(path.join(shared(), echo, "SESSION.md"))).toBe(true);
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
    fs.rmSync(shared(), { recursive: true, force: true });
    const r = await runCliAsync(["--directory", fx.sb.project, "ledger", "rebuild", "--all"], { cwd: fx.sb.project, env: envOf("admin") });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`LEDGER_REBUILT ${dir} turns=2 rows=${rows.length}`);
    expect(r.stdout).toMatch(new RegExp(`LEDGER_REBUILT ${path.join(shared(), echo).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} turns=1 rows=\\d+`));
    expect(r.stdout).toMatch(/LEDGER_REBUILT_ALL sessions=2 rows=\d+\n$/);
    expect(r.stdout + r.stderr).not.toContain(fx.server.password);
    expect(await sidecarSeqs(dir)).toEqual(rows.map((x) => x.seq));
    expect(fs.readdirSync(path.join(dir, "transcript")).sort()).toEqual(turnFiles);
    const rebuilt = transcripts(dir);
    for (const text of ["do the long thing", "step 1", "step 2", "finished", "alpha"]) expect(rebuilt, text).toContain(text);
    expect(fs.existsSync(path.join(dir, "SESSION.md"))).toBe(true);
    expect(fs.existsSync(path.join(shared(), echo, "SESSION.md"))).toBe(true);

    // usage: --all takes no id and no --merge
    const bad = await runCliAsync(["ledger", "rebuild", "--all", id], { cwd: fx.sb.project, env: envOf("admin") });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--all takes no session id");
  }, 120_000);
});
