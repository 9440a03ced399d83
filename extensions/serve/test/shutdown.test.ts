/**
 * SIGTERM mid-turn with a drain shorter than the turn (serve.shutdown_timeout_s): at the deadline the turn
 * stops at a step boundary, the server exits 0, the turn is kept, and a restarted server reads every
 * committed step and continues the kept turn. (test/faults/serve-drain.test.ts: drains that finish.)
 */
import { describe, expect, it } from "vitest";
import { SseReader, type Served } from "./serve-helpers.js";
import { serveTests } from "./serve-tests.js";

const { sb, startServe } = serveTests("oc-serve-term-");
let srv: Served | undefined;

type Row = { seq: number; role: string; step: number; text?: string };

describe("oceancode serve: graceful shutdown", () => {
  it("SIGTERM mid-turn, drain deadline passed: aborts at a step boundary, exits 0; after a restart the messages hold every committed step", async () => {
    sb.write("a.txt", "hello\n");
    sb.write(".oceancode/oceancode.json", JSON.stringify({ serve: { shutdown_timeout_s: 0.3 } }));
    // ten steps of 300 ms each, each reading a file: SIGTERM arrives after a few
    sb.write("long.json", JSON.stringify({ steps: [{ repeat: 10, text: "step {{n}}", delay_ms: 300, tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] }, { text: "finished" }] }));
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: "scripted/long.json" })).body.id;
    const sse = await SseReader.open(`${srv.url}/session/${id}/event`);
    await srv.api("POST", `/session/${id}/prompt`, { text: "go long" });
    await sse.waitFor(() => sse.events.filter((e) => e.event === "step_end").length >= 3);
    const code = await srv.stop("SIGTERM");
    expect(code).toBe(0);
    expect(srv.stderr()).toContain("oceancode serve: stopped");
    expect(srv.stderr()).toContain("1 accepted prompt(s) not finished within 0.3 s (serve.shutdown_timeout_s) are kept in");
    await sse.closed; // the stream ends with the server
    const stepsSeen = sse.events.filter((e) => e.event === "step_end").length;
    const end = sse.events.find((e) => e.event === "turn_end");
    expect(end?.data.reason).toBe("aborted");
    expect(stepsSeen).toBeLessThan(11);

    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const listed = await srv.api<Array<{ id: string; steps: number }>>("GET", "/session");
    // the interrupted step is stored too (with the engine's "interrupted" note), so at least what the stream saw end
    expect(listed.body.find((s) => s.id === id)?.steps).toBeGreaterThanOrEqual(stepsSeen);
    const msgs = await srv.api<{ messages: Row[] }>("GET", `/session/${id}/message?limit=1000`);
    const assistant = msgs.body.messages.filter((r) => r.role === "assistant");
    // every step that ended before the stop is stored, in order
    expect(assistant.length).toBeGreaterThanOrEqual(stepsSeen);
    expect(assistant.slice(0, stepsSeen).map((r) => r.text)).toEqual(Array.from({ length: stepsSeen }, (_, i) => `step ${i + 1}`));
    expect(msgs.body.messages[0]).toMatchObject({ role: "user", text: "go long" });
    const seqs = msgs.body.messages.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // the session is usable again after the restart
    const sse2 = await SseReader.open(`${srv.url}/session/${id}/event`);
    await srv.api("POST", `/session/${id}/prompt`, { text: "again" });
    await sse2.waitFor((e) => e.event === "turn_end");
    sse2.close();
  }, 60_000);
});
