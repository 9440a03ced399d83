/**
 * A fake OpenAI chat completions API on 127.0.0.1 (also stands in for Ollama / vLLM / llama.cpp), real wire
 * format: `chat.completion.chunk` SSE deltas incl. tool_calls, a usage chunk when stream_options.include_usage,
 * then `data: [DONE]`. Scriptable per request and recording every request body:
 *
 *   const fake = await startFakeOpenAI();
 *   env.OPENAI_BASE_URL = fake.baseURL;   // http://127.0.0.1:<port>/v1
 *
 * Usage comes from an automatic prefix-cache model (cached_tokens) unless a reply sets it.
 */
import type http from "node:http";
import { chunks, estimateTokens, sendJson, startServer, writeThenDrop, type BaseServer, type RecordedRequest, type FakeProviderOptions, replyScript } from "./common.js";
import { PrefixCache } from "./prefix-cache.js";
import type { FakeToolCall } from "./anthropic-server.js";

export interface OpenAIUsageFields {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

export type OpenAIReply =
  /** omitUsage: no usage chunk even when include_usage asks (as some compatible servers do) */
  | { type?: "message"; text?: string; toolCalls?: FakeToolCall[]; usage?: Partial<OpenAIUsageFields>; finishReason?: string; omitUsage?: boolean }
  | { type: "error"; status: number; message?: string; code?: string; errorType?: string; headers?: Record<string, string>; body?: unknown }
  /** stream `text`, then destroy the socket (after holding it open `holdMs`) */
  | { type: "drop"; text?: string; holdMs?: number }
  /** stream `text`, then a `data: {"error": …}` chunk inside the 200 stream (how compatible servers report a failure mid-answer) */
  | { type: "stream_error"; text?: string; message?: string; errorType?: string; code?: string }
  /** 400 context_length_exceeded, worded like OpenAI */
  | { type: "too_long"; tokens?: number; max?: number }
  /** accept the request and never answer (no status line): a server that hangs before its headers */
  | { type: "hang" }
  /** stream `text`, then a chunk whose data is `data` (not JSON), and end the stream */
  | { type: "malformed"; text?: string; data: string };

export interface OpenAIRequestBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  tools?: Array<Record<string, unknown>>;
  messages?: Array<{ role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
  [k: string]: unknown;
}

export type OpenAIRecorded = RecordedRequest<OpenAIRequestBody>;

/** `apiKey`: when set, requests whose bearer token differs get 401 */
export type FakeOpenAIOptions = FakeProviderOptions;

export interface FakeOpenAIServer extends BaseServer<OpenAIRequestBody> {
  /** url + "/v1": what OPENAI_BASE_URL / provider.openai.base_url take */
  baseURL: string;
  enqueue(...replies: OpenAIReply[]): void;
  respond(fn: ((req: OpenAIRecorded) => OpenAIReply) | undefined): void;
  readonly pending: number;
  /** forget queued replies, the responder and recorded requests (between tests sharing one server) */
  reset(): void;
}

export function lastUserContent(body: OpenAIRequestBody): string {
  const msgs = body.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]!.role === "user") return typeof msgs[i]!.content === "string" ? (msgs[i]!.content as string) : JSON.stringify(msgs[i]!.content);
  return "";
}

export async function startFakeOpenAI(opts: FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const script = replyScript<OpenAIRecorded, OpenAIReply>((req) => ({ text: `ok: ${lastUserContent(req.body)}` }));
  const cache = new PrefixCache("automatic", opts.cacheMinTokens ?? 0);
  const n = opts.chunkChars ?? 16;
  let ids = 0;

  const handle = (req: OpenAIRecorded, res: http.ServerResponse): void => {
    if (req.method !== "POST" || req.path !== "/v1/chat/completions") {
      return sendJson(res, 404, { error: { message: `fake openai: no route ${req.method} ${req.path}`, type: "invalid_request_error", code: "not_found" } });
    }
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return sendJson(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
    }
    const body = req.body;
    const reply: OpenAIReply = script.next(req);
    if (reply.type === "hang") return; // close() destroys the socket
    if (reply.type === "error") {
      return sendJson(res, reply.status, reply.body ?? { error: { message: reply.message ?? `fake error ${reply.status}`, type: reply.errorType ?? "api_error", code: reply.code ?? null } }, reply.headers);
    }
    if (reply.type === "too_long") {
      const tokens = reply.tokens ?? estimateTokens(req.raw);
      const max = reply.max ?? 128_000;
      return sendJson(res, 400, {
        error: {
          message: `This model's maximum context length is ${max} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      });
    }
    const id = `chatcmpl-fake${ids++}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model ?? "fake", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

    if (reply.type === "drop" || reply.type === "stream_error" || reply.type === "malformed") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let out = chunk({ role: "assistant", content: "" });
      for (const c of chunks(reply.text ?? "partial answer", n)) out += chunk({ content: c });
      if (reply.type === "drop") return writeThenDrop(res, out, reply.holdMs);
      if (reply.type === "malformed") return void res.end(`${out}data: ${reply.data}\n\n`);
      out += `data: ${JSON.stringify({ error: { message: reply.message ?? "The server is overloaded", type: reply.errorType ?? "server_error", code: reply.code ?? null } })}\n\n`;
      res.end(out);
      return;
    }
    const msg = reply;
    const calls = (msg.toolCalls ?? []).map((c) => ({ id: c.id ?? `call_fake${ids++}`, name: c.name, args: c.rawInput ?? JSON.stringify(c.input) }));
    const sim = cache.apply((body.messages ?? []).map((m) => ({ json: JSON.stringify(m), breakpoint: true })));
    const toolsTokens = estimateTokens(JSON.stringify(body.tools ?? []));
    const prompt = msg.usage?.prompt_tokens ?? sim.totalTokens + toolsTokens;
    const cached = msg.usage?.cached_tokens ?? sim.readTokens;
    const completion = msg.usage?.completion_tokens ?? Math.max(1, estimateTokens((msg.text ?? "") + calls.map((c) => c.args).join("")));
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } };
    const finish = msg.finishReason ?? (calls.length ? "tool_calls" : "stop");

    if (!body.stream) {
      const message: Record<string, unknown> = { role: "assistant", content: msg.text ?? null, refusal: null };
      if (calls.length) message.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } }));
      return sendJson(res, 200, { id, object: "chat.completion", created, model: body.model ?? "fake", choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let out = chunk({ role: "assistant", content: "" });
    if (msg.text) for (const c of chunks(msg.text, n)) out += chunk({ content: c });
    calls.forEach((c, index) => {
      out += chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
      for (const part of chunks(c.args, n)) out += chunk({ tool_calls: [{ index, function: { arguments: part } }] });
    });
    out += chunk({}, finish);
    if (body.stream_options?.include_usage && !msg.omitUsage) out += `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model ?? "fake", choices: [], usage })}\n\n`;
    out += "data: [DONE]\n\n";
    res.end(out);
  };

  const base = await startServer<OpenAIRequestBody>(opts, handle);
  return Object.defineProperties(base, {
    baseURL: { value: `${base.url}/v1` },
    ...script.members(base),
  }) as FakeOpenAIServer;
}
