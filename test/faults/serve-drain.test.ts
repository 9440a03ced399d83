/**
 * serve under SIGTERM with prompts running and queued (each answered 202): it stops accepting (503 with
 * Retry-After, /health too) and finishes every accepted prompt within serve.shutdown_timeout_s; what it
 * cannot finish by then is kept in serve-pending.json and the next start runs it: none is dropped. The
 * compiled CLI, real HTTP, the stored rows read back from SQLite.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SseReader, type Served } from "../../extensions/serve/test/serve-helpers.js";
import { serveTests } from "../../extensions/serve/test/serve-tests.js";
import { storedRows, waitFor } from "./helpers.js";

const { sb, startServe } = serveTests("oc-serve-drain-");
let srv: Served | undefined;

const pendingFile = () => path.join(sb.home, ".local", "share", "oceancode", "serve-pending.json");

/** `sessions` sessions with `perSession` prompts each, all answered 202; resolves once the first turn runs. */
async function load(s: Served, sessions: number, perSession: number): Promise<{ ids: string[]; sse: SseReader }> {
  const sse = await SseReader.open(`${s.url}/event`);
  const ids: string[] = [];
  for (let i = 0; i < sessions; i++) ids.push((await s.api<{ id: string }>("POST", "/session", { model: "scripted/t.json" })).body.id);
  const sent = await Promise.all(ids.flatMap((id) => Array.from({ length: perSession }, (_, k) => s.api("POST", `/session/${id}/prompt`, { text: `prompt ${k + 1} of ${id}` }))));
  expect(sent.map((r) => r.status)).toEqual(sent.map(() => 202));
  await sse.waitFor((e) => e.event === "turn_start");
  return { ids, sse };
}

/** The user prompts and the assistant answers stored for a session. */
function stored(id: string): { users: string[]; answers: number } {
  const rows = storedRows(sb, id);
  return { users: rows.filter((r) => r.role === "user").map((r) => String(r.row.text)), answers: rows.filter((r) => r.role === "assistant").length };
}

describe("serve drains on SIGTERM", () => {
  it("finishes every running and queued prompt before exiting; new requests get 503 with Retry-After meanwhile", async () => {
    sb.write("t.json", JSON.stringify({ steps: [], after: { text: "answered", delay_ms: 250 } }));
    // one more session whose turn waits (a bash loop, bounded) until the test releases it: the drain cannot end
    // before the test has looked at it, however slow the machine
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
    const gate = { name: "bash", input: { command: "for i in $(seq 600); do [ -e release ] && exit 0; sleep 0.05; done; exit 1", timeout: 40_000 } };
    sb.write("gate.json", JSON.stringify({ steps: [{ tool_calls: [gate] }, { text: "released" }] }));
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const { ids, sse } = await load(srv, 4, 3);
    const gated = (await srv.api<{ id: string }>("POST", "/session", { model: "scripted/gate.json" })).body.id;
    expect((await srv.api("POST", `/session/${gated}/prompt`, { text: "wait for the release" })).status).toBe(202);
    await sse.waitFor((e) => e.event === "tool_call_start" && e.data.sessionId === gated);
    const t0 = Date.now();
    const exited = new Promise<number | null>((r) => srv!.proc.once("exit", (c) => r(c)));
    srv.proc.kill("SIGTERM");
    // while it drains: /health and new work are refused with a time to come back
    const health = await waitFor("/health answering 503", async () => {
      const r = await srv!.api("GET", "/health").catch(() => undefined);
      return r?.status === 503 ? r : false;
    });
    expect(Number(health.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((health.body as { error: { code: string } }).error.code).toBe("shutting_down");
    const refused = await srv.api<{ error: { code: string } }>("POST", "/session", { model: "scripted/t.json" });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("shutting_down");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    fs.writeFileSync(path.join(sb.project, "release"), "");
    const code = await exited; // one signal only: a second one exits at once
    const drainMs = Date.now() - t0;
    expect(code, srv.stderr()).toBe(0);
    expect(srv.stderr()).not.toContain("kept in");
    // every accepted prompt ran to its end: 3 prompts and 3 answers stored per session, nothing kept
    for (const id of ids) {
      const s = stored(id);
      expect(s.users).toEqual([1, 2, 3].map((k) => `prompt ${k} of ${id}`));
      expect(s.answers).toBe(3);
    }
    expect(sse.events.filter((e) => e.event === "turn_end").map((e) => e.data.reason)).toEqual(Array(13).fill("end_turn"));
    expect(stored(gated)).toEqual({ users: ["wait for the release"], answers: 2 });
    expect(fs.existsSync(pendingFile())).toBe(false);
    expect(drainMs).toBeLessThan(30_000);
    sse.close();
  }, 60_000);

  it("past serve.shutdown_timeout_s: the running turns are interrupted and kept, the queued ones kept; the next start runs them all", async () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ serve: { shutdown_timeout_s: 0.5 } }));
    sb.write("t.json", JSON.stringify({ steps: [], after: { text: "answered", delay_ms: 20_000 } }));
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const { ids, sse } = await load(srv, 2, 3);
    await sse.waitFor(() => sse.events.filter((e) => e.event === "turn_start").length >= 2);
    const code = await srv.stop("SIGTERM");
    expect(code, srv.stderr()).toBe(0);
    expect(srv.stderr()).toContain("6 accepted prompt(s) not finished within 0.5 s (serve.shutdown_timeout_s) are kept in");
    sse.close();
    const kept = (JSON.parse(fs.readFileSync(pendingFile(), "utf8")) as { prompts: Array<{ sessionId: string; text: string; interrupted: boolean }> }).prompts;
    expect(kept.map((p) => [p.sessionId, p.text, p.interrupted]).sort()).toEqual(
      ids.flatMap((id) => [[id, `prompt 1 of ${id}`, true], [id, `prompt 2 of ${id}`, false], [id, `prompt 3 of ${id}`, false]]).sort(),
    );
    // the running turn was stored as interrupted; the queued ones never started
    for (const id of ids) expect(stored(id).users).toEqual([`prompt 1 of ${id}`]);

    // the next start runs what was kept, first (answers are quick now)
    sb.write("t.json", JSON.stringify({ steps: [], after: { text: "answered", delay_ms: 50 } }));
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    await waitFor("the kept prompts to run", () => ids.every((id) => stored(id).answers >= 3) && !fs.existsSync(pendingFile()), 30_000);
    for (const id of ids) {
      const users = stored(id).users;
      expect(users[0]).toBe(`prompt 1 of ${id}`);
      // the interrupted one is continued with the takeover prompt, then the queued ones as sent, in order
      expect(users[1]).toContain("[interrupted: the oceancode instance running your previous turn stopped");
      expect(users[1]).toContain(`prompt 1 of ${id}`);
      expect(users.slice(2)).toEqual([`prompt 2 of ${id}`, `prompt 3 of ${id}`]);
    }
    expect(await srv.stop("SIGTERM")).toBe(0);
  }, 60_000);

  it("a second SIGTERM during the drain exits at once and still keeps every unfinished prompt", async () => {
    sb.write("t.json", JSON.stringify({ steps: [], after: { text: "answered", delay_ms: 20_000 } }));
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const { ids, sse } = await load(srv, 1, 3);
    const exited = new Promise<number | null>((r) => srv!.proc.once("exit", (c) => r(c)));
    srv.proc.kill("SIGTERM");
    await waitFor("/health answering 503", async () => (await srv!.api("GET", "/health").catch(() => undefined))?.status === 503);
    srv.proc.kill("SIGTERM");
    expect(await exited).toBe(1);
    expect(srv.stderr()).toContain("again: exiting now (the unfinished accepted prompts are kept for the next start)");
    const kept = (JSON.parse(fs.readFileSync(pendingFile(), "utf8")) as { prompts: Array<{ text: string; interrupted: boolean }> }).prompts;
    expect(kept.map((p) => [p.text, p.interrupted])).toEqual([[`prompt 1 of ${ids[0]}`, true], [`prompt 2 of ${ids[0]}`, false], [`prompt 3 of ${ids[0]}`, false]]);
    sse.close();
  }, 60_000);
});
