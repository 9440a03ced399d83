/**
 * The shared back half of the cloud stand-ins (Bedrock, Vertex): a request the stand-in has checked and
 * translated is answered by an inner fake Anthropic server (its queue, responder, prompt-cache model and
 * failure kinds), and the SSE reply is read back event by event for the stand-in to re-frame.
 */
import type http from "node:http";
import { startFakeAnthropic, type FakeAnthropicServer } from "./anthropic-server.js";

export interface RelayReply {
  status: number;
  headers: Headers;
  /** the SSE events as they arrive (a dropped inner connection ends it with an error) */
  events(): AsyncIterable<{ event: string; data: string }>;
  /** a non-200 body as JSON */
  json(): Promise<Record<string, unknown>>;
}

export async function startInner(): Promise<FakeAnthropicServer> {
  return startFakeAnthropic();
}

/** POST the translated Messages body to the inner fake; `res` closing aborts it (a client that gave up). */
export async function relay(inner: FakeAnthropicServer, body: Record<string, unknown>, res: http.ServerResponse): Promise<RelayReply> {
  const ac = new AbortController();
  res.on("close", () => ac.abort());
  const r = await fetch(`${inner.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: ac.signal });
  return {
    status: r.status,
    headers: r.headers,
    json: async () => (await r.json()) as Record<string, unknown>,
    async *events() {
      const reader = r.body!.getReader();
      const dec = new TextDecoder();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let at: number;
        while ((at = buf.indexOf("\n\n")) >= 0) {
          const frame = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1] ?? "message";
          const data = /^data: (.*)$/m.exec(frame)?.[1] ?? "";
          yield { event, data };
        }
      }
    },
  };
}
