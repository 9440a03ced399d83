/** The OpenAI provider: chat completions with streaming, for api.openai.com or any compatible server. */
import OpenAI from "openai";
import { IdleWatch, ProviderError, emptyUsage, idleFetch, printableText, withIdleWatch, type ModelRequest, type Provider, type ProviderEvent, type ToolCall } from "../engine/api.js";
import { toChatRequest } from "./messages.js";
import { DEFAULT_BASE_URL, FIX_KEY, toProviderError } from "./errors.js";
import { openaiModels } from "./models.js";

export { DEFAULT_BASE_URL };
/** sent when a non-default base URL (a local server) has no key: the SDK requires one, the server ignores it */
export const PLACEHOLDER_KEY = "oceancode-no-key";

export interface OpenAIOptions {
  apiKey(): string | undefined;
  baseURL(): string | undefined;
  /** provider.idle_timeout_s as ms: a stream silent this long is aborted and retried */
  idleTimeoutMs?(): number;
  /** the SDK's own log lines (a malformed chunk's raw data among them), sanitised and shortened */
  debug?(text: string): void;
}

type StopReason = Extract<ProviderEvent, { type: "done" }>["stopReason"];

function stopReason(r: string | null | undefined, hasCalls: boolean): StopReason {
  // some compatible servers say "stop" even when the answer holds tool calls
  if (hasCalls) return "tool_use";
  switch (r) {
    case "stop":
      return "end_turn";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    default:
      return "other";
  }
}

export function createOpenAIProvider(opts: OpenAIOptions): Provider {
  let client: { key: string; baseURL: string; sdk: OpenAI } | undefined;
  const clientFor = (key: string, baseURL: string): OpenAI => {
    if (!client || client.key !== key || client.baseURL !== baseURL) {
      // maxRetries 0: the engine owns retries; organization/project null: never pick them up from the env
      // fetch: idleFetch, so every chunk of bytes restarts the request's idle bound; logger: the SDK
      // would print a malformed chunk's raw data to the console
      const say = (...args: unknown[]) => opts.debug?.(`openai sdk: ${printableText(args.map(String).join(" "))}`);
      const logger = { error: say, warn: say, info: () => undefined, debug: () => undefined };
      client = { key, baseURL, sdk: new OpenAI({ apiKey: key, baseURL, maxRetries: 0, organization: null, project: null, fetch: idleFetch, logger }) };
    }
    return client.sdk;
  };

  const endpoint = () => (opts.baseURL() ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  // only the official endpoint needs a key up front; a local server gets a placeholder
  const noKey = (baseURL: string) => (baseURL === DEFAULT_BASE_URL && !opts.apiKey() ? new ProviderError("auth", `no OpenAI API key: ${FIX_KEY}`) : undefined);
  return {
    id: "openai",
    models: openaiModels,
    ready: () => noKey(endpoint()),
    async *stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const baseURL = endpoint();
      const official = baseURL === DEFAULT_BASE_URL;
      const missing = noKey(baseURL);
      if (missing) throw missing;
      const key = opts.apiKey() ?? PLACEHOLDER_KEY;
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      const sdk = clientFor(key, baseURL);
      const idle = new IdleWatch(signal, opts.idleTimeoutMs?.() ?? 0, baseURL);
      const fail = (e: unknown) => (idle.fired ? idle.error() : toProviderError(e, signal, baseURL));
      let stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk> & { controller: AbortController };
      try {
        stream = await withIdleWatch(idle, () => sdk.chat.completions.create(toChatRequest(req, { officialEndpoint: official }), { signal: idle.signal }));
      } catch (e) {
        idle.stop();
        throw fail(e);
      }
      const usage = emptyUsage();
      const calls = new Map<number, { id: string; name: string; args: string }>();
      let finish: string | null | undefined;
      let finished = false;
      let complete = false;
      try {
        for await (const chunk of stream) {
          if (chunk.usage) {
            const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
            // Usage.inputTokens is uncached input, as Anthropic reports it
            usage.inputTokens = Math.max(0, chunk.usage.prompt_tokens - cached);
            usage.cacheReadTokens = cached;
            usage.outputTokens = chunk.usage.completion_tokens;
          }
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta;
          if (delta?.content) yield { type: "text_delta", text: delta.content };
          for (const tc of delta?.tool_calls ?? []) {
            const cur = calls.get(tc.index) ?? { id: "", name: "", args: "" };
            if (tc.id) cur.id = tc.id;
            if (tc.function?.name) cur.name += tc.function.name;
            if (tc.function?.arguments) cur.args += tc.function.arguments;
            calls.set(tc.index, cur);
          }
          if (choice.finish_reason) {
            finish = choice.finish_reason;
            finished = true;
          }
        }
        complete = true;
      } catch (e) {
        throw fail(e);
      } finally {
        idle.stop();
        if (!complete) stream.controller.abort();
      }
      // the SDK ends the iteration quietly when its request is aborted: the idle bound, or the caller
      if (idle.fired) throw idle.error();
      if (!finished) {
        if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
        throw new ProviderError("network", `the stream from ${baseURL} ended without a finish_reason (connection dropped mid-answer)`);
      }
      const ordered = [...calls.entries()].sort((a, b) => a[0] - b[0]);
      for (const [index, c] of ordered) yield { type: "tool_call", call: toolCall(c, index) };
      yield { type: "usage", usage };
      yield { type: "done", stopReason: stopReason(finish, ordered.length > 0) };
    },
  };
}

function toolCall(c: { id: string; name: string; args: string }, index: number): ToolCall {
  const id = c.id || `call_${index}`;
  if (c.args.trim() === "") return { id, name: c.name, input: {} };
  let input: unknown;
  try {
    input = JSON.parse(c.args);
  } catch {
    throw new ProviderError("server", `the model sent malformed JSON arguments for tool '${c.name}'`);
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) throw new ProviderError("server", `the model sent non-object arguments for tool '${c.name}'`);
  return { id, name: c.name, input: input as Record<string, unknown> };
}
