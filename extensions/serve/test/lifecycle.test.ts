/** oceancode serve end to end: a session's whole life over HTTP and SSE, the document, errors, Last-Event-ID replay. */
import { describe, expect, it } from "vitest";
import { SseReader, turnEndOf, type Served } from "./serve-helpers.js";
import { serveTests } from "./serve-tests.js";

const { sb, startServe } = serveTests("oc-serve-");
let srv: Served | undefined;

type Info = { id: string; cwd: string; model: string };

describe("oceancode serve: a session's life", () => {
  it("creates a session, streams a prompted turn over SSE to turn_end, pages its messages, deletes it", async () => {
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    expect(srv.stderr()).toContain(`oceancode serve: listening on http://127.0.0.1:${srv.port}`);
    const health = await srv.api<{ ok: boolean; version: string; sessions: number }>("GET", "/health");
    expect(health.body).toMatchObject({ ok: true, sessions: 0 });
    expect(health.body.version).toMatch(/^\d+\.\d+\.\d+/);

    const created = await srv.api<Info>("POST", "/session", { model: "scripted/echo" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ cwd: sb.project, model: "scripted/echo" });
    const id = created.body.id;

    const sse = await SseReader.open(`${srv.url}/session/${id}/event`);
    expect(sse.status).toBe(200);
    const prompted = await srv.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "hello there" });
    expect(prompted.status).toBe(202);
    expect(prompted.body.turnId).toMatch(/^turn_/);
    const end = await sse.waitFor(turnEndOf(id));
    expect(end.data).toMatchObject({ reason: "end_turn", text: "ok: hello there" });
    await sse.waitFor((e) => e.event === "turn_done" && e.data.turnId === prompted.body.turnId);
    const types = sse.events.map((e) => e.event);
    expect(types.slice(0, 2)).toEqual(["turn_queued", "turn_start"]);
    expect(types).toContain("text_delta");
    // ids increase by one per event on this server
    const ids = sse.events.map((e) => e.id!);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    sse.close();

    const msgs = await srv.api<{ messages: Array<{ seq: number; role: string; text?: string }>; nextCursor?: number }>("GET", `/session/${id}/message`);
    expect(msgs.body.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "hello there"],
      ["assistant", "ok: hello there"],
    ]);
    // paging: one at a time with the cursor
    const p1 = await srv.api<{ messages: Array<{ seq: number }>; nextCursor?: number }>("GET", `/session/${id}/message?limit=1`);
    expect(p1.body.messages).toHaveLength(1);
    expect(p1.body.nextCursor).toBe(p1.body.messages[0]!.seq);
    const p2 = await srv.api<{ messages: Array<{ seq: number; role: string }>; nextCursor?: number }>("GET", `/session/${id}/message?limit=1&cursor=${p1.body.nextCursor}`);
    expect(p2.body.messages.map((m) => m.role)).toEqual(["assistant"]);
    expect(p2.body.nextCursor).toBeUndefined();

    const listed = await srv.api<Array<{ id: string; turns: number }>>("GET", "/session");
    expect(listed.body.find((s) => s.id === id)).toMatchObject({ turns: 1 });
    expect((await srv.api("GET", `/session/${id}`)).status).toBe(200);

    const del = await srv.api<{ deleted: boolean }>("DELETE", `/session/${id}`);
    expect(del.body).toEqual({ id, deleted: true });
    expect((await srv.api<unknown[]>("GET", "/session")).body).toEqual([]);
    const gone = await srv.api<{ error: { code: string } }>("GET", `/session/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("session_not_found");
    expect(await srv.stop("SIGTERM")).toBe(0);
  });

  it("answers errors as {error:{code,message}}: 400 with the JSON path, 404 unknown session and route", async () => {
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const { body } = await srv.api<Info>("POST", "/session", { model: "scripted/echo" });
    const bad = await srv.api<{ error: { code: string; message: string; path: string } }>("POST", `/session/${body.id}/prompt`, { text: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", path: "body/text" });
    expect(bad.body.error.message).toContain("must be string");
    const extra = await srv.api<{ error: { code: string } }>("POST", "/session", { model: "scripted/echo", nope: 1 });
    expect(extra.status).toBe(400);
    const unknownModel = await srv.api<{ error: { code: string } }>("POST", "/session", { model: "nosuch/model" });
    expect(unknownModel.status).toBe(400);
    const missing = await srv.api<{ error: { code: string } }>("POST", "/session/ses_nope/prompt", { text: "hi" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("session_not_found");
    const route = await srv.api<{ error: { code: string } }>("GET", "/nope");
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe("not_found");
    const q = await srv.api<{ error: { code: string } }>("POST", `/session/${body.id}/question/q99`, { answer: "once" });
    expect(q.status).toBe(404);
    expect(q.body.error.code).toBe("question_not_found");
  });

  it("a session another process holds is 409 session_busy; once it lets go, this server opens it", async () => {
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const id = (await srv.api<Info>("POST", "/session", { model: "scripted/echo" })).body.id;
    const sse = await SseReader.open(`${srv.url}/session/${id}/event`);
    await srv.api("POST", `/session/${id}/prompt`, { text: "stored" });
    await sse.waitFor(turnEndOf(id));
    sse.close();
    const other = await startServe(["--directory", sb.project], { env: sb.env });
    try {
      const busy = await other.api<{ error: { code: string } }>("GET", `/session/${id}`);
      expect(busy.status).toBe(409);
      expect(busy.body.error.code).toBe("session_busy");
      expect(await srv.stop("SIGTERM")).toBe(0);
      srv = undefined;
      const now = await other.api<Info>("GET", `/session/${id}`);
      expect(now.status).toBe(200);
      expect(now.body.model).toBe("scripted/echo");
    } finally {
      await other.stop("SIGKILL");
    }
  });

  it("GET /doc is an OpenAPI 3.1 document with every route and its operationId", async () => {
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const doc = await srv.api<{ openapi: string; paths: Record<string, Record<string, { operationId?: string }>> }>("GET", "/doc");
    expect(doc.body.openapi).toBe("3.1.0");
    const ops = Object.entries(doc.body.paths).flatMap(([p, m]) => Object.entries(m).map(([verb, op]) => `${verb.toUpperCase()} ${p} ${op.operationId}`));
    for (const want of [
      "GET /health health",
      "GET /doc openapi",
      "POST /session sessionCreate",
      "GET /session sessionList",
      "GET /session/{id} sessionGet",
      "DELETE /session/{id} sessionDelete",
      "POST /session/{id}/prompt sessionPrompt",
      "POST /session/{id}/abort sessionAbort",
      "GET /session/{id}/message sessionMessages",
      "GET /session/{id}/question questionList",
      "POST /session/{id}/question/{questionId} questionAnswer",
      "GET /event eventStream",
      "GET /session/{id}/event sessionEventStream",
    ])
      expect(ops).toContain(want);
    // every route has an operationId
    expect(ops.every((o) => !o.endsWith(" undefined"))).toBe(true);
  });

  it("a client reconnecting with Last-Event-ID is sent every event after it, none twice", async () => {
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const a = (await srv.api<Info>("POST", "/session", { model: "scripted/echo" })).body.id;
    const all = await SseReader.open(`${srv.url}/event`);
    const first = await SseReader.open(`${srv.url}/event`);
    await srv.api("POST", `/session/${a}/prompt`, { text: "one" });
    await first.waitFor(turnEndOf(a));
    const lastSeen = first.events.at(-1)!.id!;
    first.close(); // gone while the next turn runs
    await srv.api("POST", `/session/${a}/prompt`, { text: "two" });
    await all.waitFor((e) => e.event === "turn_done" && e.data.turnId !== undefined && all.events.filter((x) => x.event === "turn_done").length === 2);
    const again = await SseReader.open(`${srv.url}/event`, { "last-event-id": String(lastSeen) });
    await again.waitFor((e) => e.event === "turn_done" && (e.data.turnId as string) !== (first.events.find((x) => x.event === "turn_done")?.data.turnId as string));
    const joined = [...first.events, ...again.events].map((e) => e.id);
    expect(joined).toEqual(all.events.map((e) => e.id));
    expect(new Set(joined).size).toBe(joined.length);
    all.close();
    again.close();
  });
});
