/**
 * A fake Anthropic Messages API on 127.0.0.1 speaking the real wire format (SSE streaming and plain JSON),
 * scriptable per request, recording every request body. Tests and benchmarks drive it through the real SDK:
 *
 *   const fake = await startFakeAnthropic();
 *   fake.enqueue({ toolCalls: [{ name: "read", input: { path: "a.txt" } }] }, { text: "done" });
 *   env.ANTHROPIC_BASE_URL = fake.url;  // the SDK appends /v1/messages
 *   ... fake.requests[1].body.messages ...
 *
 * With the queue empty, `respond(fn)` decides; without it the reply is `ok: <last user text>`.
 * Usage is computed by a prompt-cache model (cache_control breakpoints) unless a reply sets it.
 */
import type http from "node:http";
import { chunks, estimateTokens, sendJson, startServer, writeThenDrop, type BaseServer, type RecordedRequest, type FakeProviderOptions, replyScript } from "./common.js";
import { PrefixCache, type PrefixBlock } from "./prefix-cache.js";

export interface FakeToolCall {
  id?: string;
  name: string;
  input: Record<string, unknown>;
  /** send these argument bytes instead of JSON.stringify(input) (e.g. malformed JSON) */
  rawInput?: string;
}

export interface AnthropicUsageFields {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export type AnthropicReply =
  /**
   * a normal answer: text, then tool calls (stop_reason tool_use when any). `pauseMs`: after message_start
   * (and the text block's start) the stream goes quiet that long before the rest, sending a `ping` event
   * every `pingEveryMs` meanwhile when set (a long think with keep-alives) or nothing (a stall that recovers)
   */
  | { type?: "message"; text?: string; toolCalls?: FakeToolCall[]; usage?: Partial<AnthropicUsageFields>; stopReason?: string; pauseMs?: number; pingEveryMs?: number; /** spread the stream's events over this many ms (a slow turn) */ streamMs?: number }
  /** accept the request and never answer (no status line): a server that hangs before its headers */
  | { type: "hang" }
  /** stream message_start and `text`, then an event whose data is `data` (not JSON), and end the stream */
  | { type: "malformed"; text?: string; data: string }
  /** an HTTP error with Anthropic's error body (or `body` verbatim) */
  | { type: "error"; status: number; errorType?: string; message?: string; headers?: Record<string, string>; body?: unknown }
  /** stream message_start and `text`, then destroy the socket (after holding it open `holdMs`) */
  | { type: "drop"; text?: string; holdMs?: number }
  /** an `event: error` inside a 200 stream (how overload often arrives mid-answer) */
  | { type: "stream_error"; errorType?: string; message?: string; text?: string }
  /** 400 invalid_request_error "prompt is too long: N tokens > M maximum" */
  | { type: "too_long"; tokens?: number; max?: number };

export interface AnthropicRequestBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string | Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  messages?: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  [k: string]: unknown;
}

export type AnthropicRecorded = RecordedRequest<AnthropicRequestBody>;

/** `apiKey`: when set, requests whose x-api-key differs get 401 */
export type FakeAnthropicOptions = FakeProviderOptions;

export interface FakeAnthropicServer extends BaseServer<AnthropicRequestBody> {
  enqueue(...replies: AnthropicReply[]): void;
  /** decides replies once the queue is empty */
  respond(fn: ((req: AnthropicRecorded) => AnthropicReply) | undefined): void;
  /** replies still queued */
  readonly pending: number;
  /** forget queued replies, the responder and recorded requests (between tests sharing one server) */
  reset(): void;
  /** usage totals the fake reported */
  readonly totals: AnthropicUsageFields;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** The request as cache blocks: tools, system, then every message content block (markers stripped). */
export function anthropicBlocks(body: AnthropicRequestBody): PrefixBlock[] {
  const out: PrefixBlock[] = [];
  const push = (b: Record<string, unknown>, prefix = "") => {
    const { cache_control, ...rest } = b;
    out.push({ json: prefix + JSON.stringify(rest), breakpoint: cache_control !== undefined });
  };
  for (const t of body.tools ?? []) push(t, "tool:");
  if (typeof body.system === "string") out.push({ json: `system:${body.system}`, breakpoint: false });
  else for (const s of body.system ?? []) push(s, "system:");
  (body.messages ?? []).forEach((m, i) => {
    if (typeof m.content === "string") out.push({ json: `${i}:${m.role}:${JSON.stringify(m.content)}`, breakpoint: false });
    else for (const b of m.content) push(b, `${i}:${m.role}:`);
  });
  return out;
}

/** The API key a request carried: x-api-key, or a bearer token (newer SDKs send the key that way). */
export function sentKey(req: AnthropicRecorded): string | undefined {
  const x = req.headers["x-api-key"];
  if (typeof x === "string") return x;
  const auth = req.headers.authorization;
  return typeof auth === "string" && auth.startsWith("Bearer ") ? auth.slice(7) : undefined;
}

/** A recorded request's system prompt as one string (a plain string, or its text blocks joined by newlines). */
export function systemOf(req: AnthropicRecorded): string {
  return typeof req.body.system === "string" ? req.body.system : (req.body.system ?? []).map((b) => String(b.text ?? "")).join("\n");
}

/** A content block of a recorded request's messages (text, tool_use, tool_result, image …). */
export type RequestBlock = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; source?: { type: string; media_type: string; data?: string } };

/** The names of the tools a recorded request offered. */
export function toolNames(req: AnthropicRecorded): string[] {
  return (req.body.tools ?? []).map((t) => String(t.name));
}

/** The tool_result block answering call `id` in a recorded request's messages. */
export function toolResultOf(req: AnthropicRecorded, id: string): RequestBlock | undefined {
  return (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as RequestBlock[]))).find((b) => b.type === "tool_result" && b.tool_use_id === id);
}

/** A tool_result block's text (a string, or its text blocks joined); "" for none. */
export function blockText(b: RequestBlock | undefined): string {
  return !b ? "" : typeof b.content === "string" ? b.content : ((b.content as RequestBlock[] | undefined) ?? []).map((c) => c.text ?? "").join("");
}

export function lastUserText(body: AnthropicRequestBody): string {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i]!;
    if (m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    for (let j = m.content.length - 1; j >= 0; j--) if (m.content[j]!.type === "text") return String(m.content[j]!.text);
  }
  return "";
}

export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const script = replyScript<AnthropicRecorded, AnthropicReply>((req) => ({ text: `ok: ${lastUserText(req.body)}` }));
  const cache = new PrefixCache("breakpoints", opts.cacheMinTokens ?? 0);
  const totals: AnthropicUsageFields = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const n = opts.chunkChars ?? 16;
  let ids = 0;

  const handle = (req: AnthropicRecorded, res: http.ServerResponse): void => {
    // a reachability probe (Claude Code sends HEAD / before its first request): answered, never a 404 to retry on
    if ((req.method === "HEAD" || req.method === "GET") && (req.path === "/" || req.path.startsWith("/?"))) {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(req.method === "GET" ? "fake anthropic" : undefined);
      return;
    }
    if (req.method !== "POST" || !req.path.startsWith("/v1/messages")) {
      return sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `fake anthropic: no route ${req.method} ${req.path}` } });
    }
    if (req.path.startsWith("/v1/messages/count_tokens")) {
      return sendJson(res, 200, { input_tokens: estimateTokens(req.raw) });
    }
    if (opts.apiKey !== undefined && sentKey(req) !== opts.apiKey) {
      return sendJson(res, 401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
    }
    const reply: AnthropicReply = script.next(req);
    const body = req.body;
    switch (reply.type) {
      case "hang":
        return; // close() destroys the socket
      case "error": {
        const type = reply.errorType ?? ERROR_TYPES[reply.status] ?? "api_error";
        return sendJson(res, reply.status, reply.body ?? { type: "error", error: { type, message: reply.message ?? `fake ${type}` } }, { "request-id": `req_fake_${ids++}`, ...reply.headers });
      }
      case "too_long": {
        const tokens = reply.tokens ?? estimateTokens(req.raw);
        const max = reply.max ?? 200_000;
        return sendJson(res, 400, { type: "error", error: { type: "invalid_request_error", message: `prompt is too long: ${tokens} tokens > ${max} maximum` } });
      }
      default:
        break;
    }
    const usage = computeUsage(reply.type === undefined || reply.type === "message" ? reply : {});
    const msgId = `msg_fake_${ids++}`;
    const start = { id: msgId, type: "message", role: "assistant", model: body.model ?? "fake", content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } };
    if (reply.type === "drop" || reply.type === "stream_error" || reply.type === "malformed") {
      res.writeHead(200, sseHeaders());
      let text = sse("message_start", { type: "message_start", message: start });
      text += sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
      for (const c of chunks(reply.text ?? "partial answer", n)) text += sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: c } });
      if (reply.type === "drop") return writeThenDrop(res, text, reply.holdMs);
      if (reply.type === "malformed") return void res.end(`${text}event: content_block_delta\ndata: ${reply.data}\n\n`);
      text += sse("error", { type: "error", error: { type: reply.errorType ?? "overloaded_error", message: reply.message ?? "Overloaded" } });
      res.end(text);
      return;
    }
    const msg = reply as Extract<AnthropicReply, { type?: "message" }>;
    const calls = (msg.toolCalls ?? []).map((c) => ({ id: c.id ?? `toolu_fake_${ids++}`, name: c.name, input: c.input, json: c.rawInput ?? JSON.stringify(c.input) }));
    const stopReason = msg.stopReason ?? (calls.length ? "tool_use" : "end_turn");
    const outTokens = msg.usage?.output_tokens ?? Math.max(1, estimateTokens((msg.text ?? "") + calls.map((c) => c.json).join("")));
    const finalUsage = { ...usage, output_tokens: outTokens };
    for (const k of Object.keys(totals) as Array<keyof AnthropicUsageFields>) totals[k] += finalUsage[k];

    if (!body.stream) {
      const content: unknown[] = [];
      if (msg.text) content.push({ type: "text", text: msg.text });
      for (const c of calls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
      return sendJson(res, 200, { ...start, content, stop_reason: stopReason, usage: finalUsage });
    }
    res.writeHead(200, sseHeaders());
    let out = sse("message_start", { type: "message_start", message: start });
    let index = 0;
    // where a pause goes: after message_start and the text block's start
    let pauseAt = out.length;
    if (msg.text !== undefined && msg.text !== "") {
      out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      out += sse("ping", { type: "ping" });
      pauseAt = out.length;
      for (const c of chunks(msg.text, n)) out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: c } });
      out += sse("content_block_stop", { type: "content_block_stop", index });
      index++;
    }
    for (const c of calls) {
      out += sse("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: c.id, name: c.name, input: {} } });
      for (const part of chunks(c.json, n)) out += sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } });
      out += sse("content_block_stop", { type: "content_block_stop", index });
      index++;
    }
    out += sse("message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outTokens } });
    out += sse("message_stop", { type: "message_stop" });
    if (msg.streamMs) return trickle(res, out, msg.streamMs);
    if (!msg.pauseMs) return void res.end(out);
    res.write(out.slice(0, pauseAt));
    const pinger = msg.pingEveryMs ? setInterval(() => res.write(sse("ping", { type: "ping" })), msg.pingEveryMs) : undefined;
    setTimeout(() => {
      clearInterval(pinger);
      if (!res.destroyed) res.end(out.slice(pauseAt));
    }, msg.pauseMs).unref();
    res.on("close", () => clearInterval(pinger));

    function computeUsage(r: { usage?: Partial<AnthropicUsageFields> }): Omit<AnthropicUsageFields, "output_tokens"> {
      const sim = cache.apply(anthropicBlocks(body));
      return {
        input_tokens: r.usage?.input_tokens ?? sim.inputTokens,
        cache_read_input_tokens: r.usage?.cache_read_input_tokens ?? sim.readTokens,
        cache_creation_input_tokens: r.usage?.cache_creation_input_tokens ?? sim.writeTokens,
      };
    }
  };

  const base = await startServer<AnthropicRequestBody>(opts, handle);
  // defineProperties, not Object.assign: the getters must stay live
  return Object.defineProperties(base, {
    ...script.members(base),
    totals: { value: totals },
  }) as FakeAnthropicServer;
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function sseHeaders(): http.OutgoingHttpHeaders {
  return { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "request-id": `req_fake_${Date.now()}` };
}

/** Write an SSE body one event at a time, spread over `ms` (stops when the client goes away). */
function trickle(res: http.ServerResponse, body: string, ms: number): void {
  const events = body.split(/(?<=\n\n)/).filter(Boolean);
  const gap = Math.max(1, Math.floor(ms / Math.max(1, events.length)));
  let i = 0;
  const next = (): void => {
    if (res.destroyed || res.writableEnded) return;
    if (i >= events.length - 1) {
      res.end(events[i] ?? "");
      return;
    }
    res.write(events[i++]!);
    setTimeout(next, gap).unref();
  };
  next();
}
