/** The server under load: 50 sessions' turns at once, and an SSE client that never reads. */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { SseReader, type Served } from "./serve-helpers.js";
import { serveTests } from "./serve-tests.js";

const { sb, startServe } = serveTests("oc-serve-load-");
let srv: Served | undefined;

describe("oceancode serve under load", () => {
  it("50 sessions each run a scripted turn concurrently: every one reaches turn_end", async () => {
    sb.write("s.json", JSON.stringify({ steps: [{ text: "step one of {{n}}", tool_calls: [{ name: "read", input: { file_path: "s.json" } }], delay_ms: 50 }, { text: "all done", delay_ms: 50 }] }));
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const all = await SseReader.open(`${srv.url}/event`);
    const ids = await Promise.all(Array.from({ length: 50 }, async () => (await srv!.api<{ id: string }>("POST", "/session", { model: "scripted/s.json" })).body.id));
    expect(new Set(ids).size).toBe(50);
    const t0 = Date.now();
    const accepted = await Promise.all(ids.map((id) => srv!.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "go" })));
    expect(accepted.every((r) => r.status === 202)).toBe(true);
    await all.waitFor(() => all.events.filter((e) => e.event === "turn_end").length === 50, 60_000);
    const ends = all.events.filter((e) => e.event === "turn_end");
    expect(new Set(ends.map((e) => e.data.sessionId))).toEqual(new Set(ids));
    expect(ends.every((e) => e.data.reason === "end_turn" && e.data.text === "all done")).toBe(true);
    // concurrent, not one after another: 50 turns of two 50 ms steps each take far less than 50 × 100 ms
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect((await srv.api<{ sessions: number }>("GET", "/health")).body.sessions).toBe(50);
    all.close();
  }, 90_000);

  it("turns of one session are serialized: the second prompt runs after the first ends", async () => {
    sb.write("slow.json", JSON.stringify({ steps: [{ text: "first", delay_ms: 300 }, { text: "second" }] }));
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: "scripted/slow.json" })).body.id;
    const sse = await SseReader.open(`${srv.url}/session/${id}/event`);
    const [a, b] = await Promise.all([srv.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "1" }), srv.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "2" })]);
    expect(a.body.turnId).not.toBe(b.body.turnId);
    await sse.waitFor(() => sse.events.filter((e) => e.event === "turn_end").length === 2);
    const seq = sse.events.filter((e) => e.event === "turn_start" || e.event === "turn_end").map((e) => `${e.event}:${e.data.turn}`);
    expect(seq).toEqual(["turn_start:1", "turn_end:1", "turn_start:2", "turn_end:2"]);
    sse.close();
  });

  it("an SSE client that never reads does not hold up a turn; past its buffer it gets event: dropped and is disconnected", async () => {
    // one step streaming ~8 MB of text in 2,000 pieces: more than the socket buffers and the client's 256 KiB bound
    // (words, not one 8 MB word: the engine's text handling is slow on very long words)
    sb.write("big.json", JSON.stringify({ steps: [{ text: "the quick brown fox jumps. ".repeat(300_000), chunks: 2000 }] }));
    srv = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_SERVE_CLIENT_BUFFER_BYTES: String(256 * 1024) } });
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: "scripted/big.json" })).body.id;

    // a raw client: sends the request, then stops reading (paused socket: TCP back-pressure reaches the server)
    const slow = net.connect(srv.port, "127.0.0.1");
    await new Promise<void>((r) => slow.once("connect", () => r()));
    slow.write(`GET /session/${id}/event HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    let got = "";
    slow.once("data", (d: Buffer) => {
      got += d.toString();
      slow.pause();
    });
    await new Promise((r) => setTimeout(r, 200));
    const fast = await SseReader.open(`${srv.url}/session/${id}/event`);
    const t0 = Date.now();
    await srv.api("POST", `/session/${id}/prompt`, { text: "big" });
    const end = await fast.waitFor((e) => e.event === "turn_end", 30_000);
    expect(end.data.reason).toBe("end_turn");
    expect(Date.now() - t0).toBeLessThan(20_000);
    // now read what the slow client was sent: it ends with the dropped event, then the server closes it
    const closed = new Promise<void>((r) => slow.once("close", () => r()));
    slow.on("data", (d: Buffer) => (got += d.toString()));
    slow.resume();
    await closed;
    expect(got).toContain("HTTP/1.1 200");
    // the last event it was sent says why it was cut off
    expect(got).toMatch(/event: dropped\ndata: \{"reason":"the client did not keep up"[^\n]*\n\n(\r\n0\r\n\r\n)?$/);
    fast.close();
  }, 60_000);
});
