/**
 * Forking a session: `oceancode session fork <id> [--at <entry>]`, the engine's forkSession in process
 * (a turn undone before the fork stays out: the ledger's journal path), and serve's POST /session/{id}/fork.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, type Sandbox } from "../kit/cli.js";
import { boot, slash, type Booted } from "../../extensions/checkpoints/test/helpers.js";
import { startServe, type Served } from "../../extensions/serve/test/serve-helpers.js";

let sb: Sandbox | undefined;
let b: Booted | undefined;
let srv: Served | undefined;
afterEach(async () => {
  await srv?.stop("SIGKILL");
  await b?.kernel.shutdown();
  b?.sb.cleanup();
  sb?.cleanup();
  sb = b = srv = undefined;
});

function oc(s: Sandbox, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: s.project, env: s.env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

type Summary = { id: string; title?: string; turns: number };
const sessions = (s: Sandbox): Summary[] => JSON.parse(oc(s, "sessions", "--json").out) as Summary[];
type Msg = { role: string; text?: string; seq: number; turn: number };

describe("session fork", () => {
  it("forks at a turn and at an entry, leaves the source as it was, and the fork continues on its own", () => {
    sb = makeSandbox("oc-fork-");
    for (const [i, t] of ["first prompt", "second prompt", "third prompt"].entries()) expect(oc(sb, "run", ...(i ? ["-c"] : []), "-m", "scripted/echo", t).code).toBe(0);
    const src = sessions(sb)[0]!;
    expect(src.turns).toBe(3);

    const r = oc(sb, "session", "fork", src.id, "--at", "turn:2");
    expect(r.code, r.err).toBe(0);
    const line = /SESSION_FORKED id=(\S+) from=(\S+) at=r4 rows=4/.exec(r.out);
    expect(line?.[2]).toBe(src.id);
    const fork = line![1]!;
    expect(sessions(sb).find((s) => s.id === fork)).toMatchObject({ turns: 2, title: "first prompt (fork)" });

    // the fork goes on by itself; the source keeps its three turns
    expect(oc(sb, "run", "--session", fork, "-m", "scripted/echo", "fork only").code).toBe(0);
    const after = sessions(sb);
    expect(after.find((s) => s.id === fork)!.turns).toBe(3);
    expect(after.find((s) => s.id === src.id)!.turns).toBe(3);
    const md = oc(sb, "export", "--md", "--out", "-", fork);
    expect(md.out).toContain("second prompt");
    expect(md.out).toContain("fork only");
    expect(md.out).not.toContain("third prompt");

    // an entry by seq, as JSON; its ledger holds the journal and the transcripts of the copied turns
    const j = oc(sb, "session", "fork", src.id, "--at", "r3", "--json");
    expect(j.code, j.err).toBe(0);
    const res = JSON.parse(j.out) as { id: string; entry: string; rows: number; turns: number };
    expect(res).toMatchObject({ from: src.id, entry: "r3", rows: 3, turns: 2 });
    const ledgerDir = path.join(sb.env.XDG_DATA_HOME ?? path.join(sb.home, ".local", "share"), "oceancode", "session-ledger", res.id);
    expect(fs.readFileSync(path.join(ledgerDir, "journal.jsonl"), "utf8").trim().split("\n")).toHaveLength(3);
    expect(fs.readdirSync(path.join(ledgerDir, "transcript")).sort()).toEqual(["turn-0001.md", "turn-0002.md"]);

    // bad entries are usage errors (exit 2) and create nothing
    const before = sessions(sb).length;
    const bad = oc(sb, "session", "fork", src.id, "--at", "r99");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("no entry r99");
    expect(oc(sb, "session", "fork", src.id, "--at", "yesterday").err).toContain("is not an entry");
    expect(oc(sb, "session", "fork", "ses_nope").code).toBe(1);
    expect(sessions(sb)).toHaveLength(before);
  });

  it("a turn undone before the fork stays out of it (the journal's active path), though its rows are still stored", async () => {
    b = await boot([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/script.json" });
    await b.engine.prompt(s, "keep me");
    await b.engine.prompt(s, "undo me");
    expect(await slash(b, s, "undo")).toContain("undid turn 2");
    await b.engine.prompt(s, "after the undo");
    const r = await b.engine.forkSession(s.info.id);
    const fork = await b.engine.openSession(r.id);
    const texts = fork.rows.map((x) => ("text" in x ? x.text : ""));
    expect(texts).toEqual(["keep me", "one", "after the undo", "three"]);
    expect(fork.rows.map((x) => x.seq)).toEqual([1, 2, 3, 4]);
    expect(fork.info.overrides.forked_from).toEqual({ session: s.info.id, entry: r.entry });
    await expect(b.engine.forkSession(s.info.id, { at: "turn:9" })).rejects.toMatchObject({ code: "OC_ERR_FORK_ENTRY" });
  });

  it("POST /session/{id}/fork answers 201 with the new session; 400 for a bad entry, 404 for an unknown session", async () => {
    sb = makeSandbox("oc-fork-serve-");
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const created = await srv.api<{ id: string }>("POST", "/session", { model: "scripted/echo" });
    const id = created.body.id;
    for (const t of ["alpha", "beta"]) {
      expect((await srv.api("POST", `/session/${id}/prompt`, { text: t })).status).toBe(202);
      for (let i = 0; i < 100; i++) {
        const m = await srv.api<{ messages: Msg[] }>("GET", `/session/${id}/message`);
        if (m.body.messages.some((x) => x.role === "assistant" && x.text === `ok: ${t}`)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const f = await srv.api<{ id: string; entry: string; rows: number }>("POST", `/session/${id}/fork`, { at: "turn:1" });
    expect(f.status).toBe(201);
    expect(f.body).toMatchObject({ entry: "r2", rows: 2 });
    const msgs = await srv.api<{ messages: Msg[] }>("GET", `/session/${f.body.id}/message`);
    expect(msgs.body.messages.map((m) => m.text)).toEqual(["alpha", "ok: alpha"]);
    expect((await srv.api<{ error: { code: string } }>("POST", `/session/${id}/fork`, { at: "r42" })).body.error.code).toBe("bad_entry");
    expect((await srv.api("POST", `/session/ses_nope/fork`, {})).status).toBe(404);
  });
});
