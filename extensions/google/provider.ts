/**
 * The Google Gemini provider: one generateContentStream request per step, mapped to ProviderEvents.
 * The SDK's fetch-only build (`@google/genai/web`, the same client on globalThis.fetch): an API key is all
 * this route uses, and the Node build would load google-auth-library (Vertex credentials) on every start.
 */
import { GoogleGenAI, type GenerateContentResponse, type GenerateContentResponseUsageMetadata } from "@google/genai/web";
import { type ModelRequest, type Provider, type ProviderEvent, type ToolCall, type Usage } from "../engine/api.js";
import { IdleWatch, ProviderError, emptyUsage, idleFetch, withIdleWatch } from "../engine/kit.js";
import { SYNTHETIC_ID_PREFIX, toGeminiRequest } from "./messages.js";
import { DEFAULT_BASE_URL, FIX_KEY, toProviderError } from "./errors.js";
import { googleModels, validatesSignatures } from "./models.js";

export { DEFAULT_BASE_URL };

export interface GoogleOptions {
  /** read before every request, so a key stored mid-session is picked up */
  apiKey(): string | undefined;
  baseURL(): string | undefined;
  /** provider.idle_timeout_s as ms: a stream silent this long is aborted and retried */
  idleTimeoutMs?(): number;
  /** one line for the user (e.g. a feature Gemini does not have), said once per process */
  notice?(text: string): void;
  /** whether explicit cache markers were asked for (provider.google.cache_ttl set); Gemini has none */
  cacheRequested?(): boolean;
}

type StopReason = Extract<ProviderEvent, { type: "done" }>["stopReason"];

const REFUSALS = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "LANGUAGE"]);

function stopReason(r: string | undefined, hasCalls: boolean): StopReason {
  if (hasCalls) return "tool_use";
  if (r === "STOP") return "end_turn";
  if (r === "MAX_TOKENS") return "max_tokens";
  if (r && REFUSALS.has(r)) return "refusal";
  return "other";
}

/** usageMetadata is cumulative; the last one seen wins. promptTokenCount includes the cached tokens. */
function toUsage(u: Usage, m: GenerateContentResponseUsageMetadata | undefined): void {
  if (!m) return;
  const cached = m.cachedContentTokenCount ?? 0;
  const prompt = (m.promptTokenCount ?? 0) + (m.toolUsePromptTokenCount ?? 0);
  u.inputTokens = Math.max(0, prompt - cached);
  u.cacheReadTokens = cached;
  // thinking is billed as output
  u.outputTokens = (m.candidatesTokenCount ?? 0) + (m.thoughtsTokenCount ?? 0);
  u.cacheWriteTokens = 0;
}

/** Only the explicit `cachedContents` API caches on request; oceancode relies on implicit caching. */
const CACHE_NOTICE = "Gemini caches prompt prefixes implicitly (reported as cache reads); oceancode sets no explicit cache markers on this provider";

export function createGoogleProvider(opts: GoogleOptions): Provider {
  let client: { key: string; baseURL: string; sdk: GoogleGenAI } | undefined;
  const clientFor = (key: string, baseURL: string): GoogleGenAI => {
    if (!client || client.key !== key || client.baseURL !== baseURL) {
      // vertexai false: never switch to Vertex because GOOGLE_GENAI_USE_VERTEXAI is set; no retryOptions:
      // the SDK does not retry, the engine does
      client = { key, baseURL, sdk: new GoogleGenAI({ apiKey: key, vertexai: false, httpOptions: { baseUrl: baseURL } }) };
    }
    return client.sdk;
  };
  // call id -> the thought signature the model sent with it (Gemini 3 wants it back with the call)
  const signatures = new Map<string, string>();
  let calls = 0;
  let noticed = false;
  const endpoint = () => (opts.baseURL() ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const noKey = () => new ProviderError("auth", `no Gemini API key: ${FIX_KEY}`);

  return {
    id: "google",
    models: googleModels,
    ready: () => (opts.apiKey() ? undefined : noKey()),
    async *stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const key = opts.apiKey();
      if (!key) throw noKey();
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      if (!noticed && (req.extra.cacheMarkers !== undefined || opts.cacheRequested?.())) {
        noticed = true;
        opts.notice?.(CACHE_NOTICE);
      }
      const baseURL = endpoint();
      const sdk = clientFor(key, baseURL);
      const idle = new IdleWatch(signal, opts.idleTimeoutMs?.() ?? 0, `the Gemini API at ${baseURL}`);
      // the SDK's ApiError has no headers: this request's fetch keeps them for retry-after
      const seen: { headers?: Headers } = {};
      const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const res = await idleFetch(input, init);
        seen.headers = res.headers;
        return res;
      };
      const fail = (e: unknown) => (idle.fired ? idle.error() : toProviderError(e, signal, baseURL, seen.headers));
      const params = toGeminiRequest(req, { signature: (id) => signatures.get(id), needsSignature: validatesSignatures(req.model.name) });
      params.config = { ...params.config, abortSignal: idle.signal, httpOptions: { fetch: fetchFn } };
      let stream: AsyncGenerator<GenerateContentResponse>;
      try {
        stream = await withIdleWatch(idle, () => sdk.models.generateContentStream(params));
      } catch (e) {
        idle.stop();
        throw fail(e);
      }
      const usage = emptyUsage();
      const found: ToolCall[] = [];
      let finish: string | undefined;
      let blocked: string | undefined;
      try {
        for await (const chunk of stream) {
          toUsage(usage, chunk.usageMetadata);
          if (chunk.promptFeedback?.blockReason) blocked = String(chunk.promptFeedback.blockReason);
          const cand = chunk.candidates?.[0];
          if (!cand) continue;
          for (const part of cand.content?.parts ?? []) {
            // thought summaries are the model's reasoning, not its answer
            if (part.text && !part.thought) yield { type: "text_delta", text: part.text };
            if (part.functionCall) {
              const id = part.functionCall.id || `${SYNTHETIC_ID_PREFIX}${++calls}`;
              if (part.thoughtSignature) signatures.set(id, part.thoughtSignature);
              found.push(toolCall(id, part.functionCall.name, part.functionCall.args));
            }
          }
          if (cand.finishReason) finish = String(cand.finishReason);
        }
      } catch (e) {
        throw fail(e);
      } finally {
        idle.stop();
      }
      if (idle.fired) throw idle.error();
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      if (blocked !== undefined) {
        yield { type: "usage", usage };
        yield { type: "done", stopReason: "refusal" };
        return;
      }
      if (finish === undefined) throw new ProviderError("network", `the Gemini stream from ${baseURL} ended without a finishReason (connection dropped mid-answer)`);
      if (finish === "MALFORMED_FUNCTION_CALL") throw new ProviderError("server", "Gemini produced a malformed function call (finishReason MALFORMED_FUNCTION_CALL)");
      for (const c of found) yield { type: "tool_call", call: c };
      yield { type: "usage", usage };
      yield { type: "done", stopReason: stopReason(finish, found.length > 0) };
    },
  };
}

function toolCall(id: string, name: string | undefined, args: Record<string, unknown> | undefined): ToolCall {
  if (!name) throw new ProviderError("server", "Gemini sent a function call without a name");
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) throw new ProviderError("server", `Gemini sent non-object arguments for tool '${name}'`);
  return { id, name, input: args ?? {} };
}
