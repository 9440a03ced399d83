/**
 * A fake Gemini API (generativelanguage.googleapis.com) on 127.0.0.1, the REST wire format as @google/genai
 * calls it: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` with the key in `x-goog-api-key`,
 * answered with `data: <GenerateContentResponse>` SSE events (CRLF-delimited, as Google sends them): text
 * parts in pieces, whole functionCall parts, the finishReason and usageMetadata on the last event.
 *
 *   const fake = await startFakeGemini({ apiKey: "k" });
 *   env.GOOGLE_GEMINI_BASE_URL = fake.url;
 *
 * A wrong key gets Google's real answer: 400 INVALID_ARGUMENT with ErrorInfo reason API_KEY_INVALID.
 * Usage comes from an implicit prefix-cache model (cachedContentTokenCount) unless a reply sets it.
 */
import type http from "node:http";
import { chunks, estimateTokens, sendJson, startServer, writeThenDrop, type BaseServer, type RecordedRequest, type FakeProviderOptions, replyScript } from "./common.js";
import { PrefixCache } from "./prefix-cache.js";
import type { FakeToolCall } from "./anthropic-server.js";

export interface GeminiUsageFields {
  promptTokenCount: number;
  candidatesTokenCount: number;
  cachedContentTokenCount: number;
  thoughtsTokenCount: number;
}

export type GeminiReply =
  | { type?: "message"; text?: string; toolCalls?: Array<FakeToolCall & { thoughtSignature?: string }>; usage?: Partial<GeminiUsageFields>; finishReason?: string }
  /** an HTTP error in Google's shape; `retryDelay` adds a google.rpc.RetryInfo detail ("3s") */
  | { type: "error"; status: number; message?: string; statusText?: string; reason?: string; retryDelay?: string; headers?: Record<string, string>; body?: unknown }
  /** stream `text`, then destroy the socket (after holding it open `holdMs`) */
  | { type: "drop"; text?: string; holdMs?: number }
  /** stream `text`, then an `{"error": …}` event inside the 200 stream */
  | { type: "stream_error"; text?: string; status?: number; message?: string; statusText?: string }
  /** 400 INVALID_ARGUMENT, worded like Gemini when the input exceeds the context window */
  | { type: "too_long"; tokens?: number; max?: number }
  /** the prompt was blocked: promptFeedback.blockReason and no candidates */
  | { type: "blocked"; reason?: string }
  /** accept the request and never answer */
  | { type: "hang" };

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType?: string; data?: string };
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
}

export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

export interface GeminiRequestBody {
  contents?: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string; description?: string; parametersJsonSchema?: unknown; parameters?: unknown }> }>;
  toolConfig?: Record<string, unknown>;
  generationConfig?: { maxOutputTokens?: number; [k: string]: unknown };
  [k: string]: unknown;
}

export type GeminiRecorded = RecordedRequest<GeminiRequestBody>;

/** `apiKey`: when set, requests whose x-goog-api-key differs get Google's 400 API_KEY_INVALID */
export type FakeGeminiOptions = FakeProviderOptions;

export interface FakeGeminiServer extends BaseServer<GeminiRequestBody> {
  enqueue(...replies: GeminiReply[]): void;
  respond(fn: ((req: GeminiRecorded) => GeminiReply) | undefined): void;
  readonly pending: number;
  /** the model name of a recorded request (from its path) */
  modelOf(req: GeminiRecorded): string;
  reset(): void;
}

const ROUTE = /^\/v1beta\/models\/([^/:?]+):streamGenerateContent\?alt=sse$/;
const STATUS_TEXT: Record<number, string> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED" };

export function lastUserText(body: GeminiRequestBody): string {
  const cs = body.contents ?? [];
  for (let i = cs.length - 1; i >= 0; i--) {
    if (cs[i]!.role !== "user") continue;
    const t = (cs[i]!.parts ?? []).map((p) => p.text ?? "").join("");
    if (t) return t;
  }
  return "";
}

function googleError(status: number, message: string, statusText?: string, details: unknown[] = []): unknown {
  return { error: { code: status, message, status: statusText ?? STATUS_TEXT[status] ?? "UNKNOWN", ...(details.length ? { details } : {}) } };
}

export async function startFakeGemini(opts: FakeGeminiOptions = {}): Promise<FakeGeminiServer> {
  const script = replyScript<GeminiRecorded, GeminiReply>((req) => ({ text: `ok: ${lastUserText(req.body)}` }));
  const cache = new PrefixCache("automatic", opts.cacheMinTokens ?? 0);
  const n = opts.chunkChars ?? 16;
  let ids = 0;

  const handle = (req: GeminiRecorded, res: http.ServerResponse): void => {
    const route = ROUTE.exec(req.path);
    if (req.method !== "POST" || !route) return sendJson(res, 404, googleError(404, `fake gemini: no route ${req.method} ${req.path}`));
    if (opts.apiKey !== undefined && req.headers["x-goog-api-key"] !== opts.apiKey) {
      return sendJson(res, 400, googleError(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT", [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }]));
    }
    const model = decodeURIComponent(route[1]!);
    const body = req.body;
    const reply: GeminiReply = script.next(req);
    if (reply.type === "hang") return;
    if (reply.type === "error") {
      const details = reply.reason ? [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: reply.reason, domain: "googleapis.com" }] : [];
      if (reply.retryDelay) details.push({ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: reply.retryDelay } as never);
      return sendJson(res, reply.status, reply.body ?? googleError(reply.status, reply.message ?? `fake error ${reply.status}`, reply.statusText, details), reply.headers);
    }
    if (reply.type === "too_long") {
      const max = reply.max ?? 1_048_576;
      const tokens = reply.tokens ?? max + estimateTokens(req.raw);
      return sendJson(res, 400, googleError(400, `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${max}).`));
    }
    const event = (o: Record<string, unknown>) => `data: ${JSON.stringify({ ...o, modelVersion: model, responseId: `fake-${ids}` })}\r\n\r\n`;
    const textEvent = (t: string) => event({ candidates: [{ content: { parts: [{ text: t }], role: "model" }, index: 0 }] });
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    ids++;
    if (reply.type === "drop" || reply.type === "stream_error") {
      let out = "";
      for (const c of chunks(reply.text ?? "partial answer", n)) out += textEvent(c);
      if (reply.type === "drop") return writeThenDrop(res, out, reply.holdMs);
      const status = reply.status ?? 503;
      return void res.end(out + `data: ${JSON.stringify(googleError(status, reply.message ?? "The model is overloaded. Please try again later.", reply.statusText))}\r\n\r\n`);
    }
    if (reply.type === "blocked") {
      return void res.end(event({ promptFeedback: { blockReason: reply.reason ?? "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: estimateTokens(req.raw), totalTokenCount: estimateTokens(req.raw) } }));
    }
    const msg = reply;
    // implicit caching: every content boundary of system + tools + contents is a cacheable prefix
    const blocks = [JSON.stringify(body.systemInstruction ?? {}), JSON.stringify(body.tools ?? []), ...(body.contents ?? []).map((c) => JSON.stringify(c))].map((json) => ({ json, breakpoint: true }));
    const sim = cache.apply(blocks);
    const calls = (msg.toolCalls ?? []).map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, args: c.input, sig: c.thoughtSignature }));
    const prompt = msg.usage?.promptTokenCount ?? sim.totalTokens;
    const cached = msg.usage?.cachedContentTokenCount ?? sim.readTokens;
    const candidates = msg.usage?.candidatesTokenCount ?? Math.max(1, estimateTokens((msg.text ?? "") + JSON.stringify(calls)));
    const thoughts = msg.usage?.thoughtsTokenCount ?? 0;
    const usageMetadata = {
      promptTokenCount: prompt,
      candidatesTokenCount: candidates,
      totalTokenCount: prompt + candidates + thoughts,
      ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
      ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
      promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
    };
    let out = "";
    const pieces = msg.text ? chunks(msg.text, n) : [];
    pieces.forEach((c, i) => {
      const last = i === pieces.length - 1 && calls.length === 0;
      out += last
        ? event({ candidates: [{ content: { parts: [{ text: c }], role: "model" }, finishReason: msg.finishReason ?? "STOP", index: 0 }], usageMetadata })
        : event({ candidates: [{ content: { parts: [{ text: c }], role: "model" }, index: 0 }], usageMetadata: { promptTokenCount: prompt, totalTokenCount: prompt } });
    });
    if (calls.length) {
      const parts = calls.map((c) => ({ functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: c.args }, ...(c.sig ? { thoughtSignature: c.sig } : {}) }));
      out += event({ candidates: [{ content: { parts, role: "model" }, finishReason: msg.finishReason ?? "STOP", index: 0 }], usageMetadata });
    }
    if (!pieces.length && !calls.length) out += event({ candidates: [{ content: { parts: [{ text: "" }], role: "model" }, finishReason: msg.finishReason ?? "STOP", index: 0 }], usageMetadata });
    res.end(out);
  };

  const base = await startServer<GeminiRequestBody>(opts, handle);
  return Object.defineProperties(base, {
    ...script.members(base),
    modelOf: { value: (r: GeminiRecorded) => decodeURIComponent(ROUTE.exec(r.path)?.[1] ?? "") },
  }) as FakeGeminiServer;
}
