/** The Anthropic provider: one streaming Messages request per step, mapped to ProviderEvents. */
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { MessagesClient } from "./client.js";
import { IdleWatch, ProviderError, emptyUsage, idleFetch, printableText, withIdleWatch, type ModelRequest, type Provider, type ProviderEvent, type ToolCall, type Usage } from "../engine/api.js";
import { toAnthropicRequest, type CacheTtl } from "./messages.js";
import { FIX_KEY, toProviderError } from "./errors.js";
import { anthropicModels } from "./models.js";

export interface AnthropicOptions {
  /** read before every request, so a key stored mid-session is picked up */
  apiKey(): string | undefined;
  baseURL(): string | undefined;
  cacheTtl(): CacheTtl;
  /** where SDK notices (e.g. "model X is deprecated") go, once per distinct text, instead of the console */
  notice?(text: string): void;
  /** provider.idle_timeout_s as ms: a stream silent this long (pings count as activity) is aborted and retried */
  idleTimeoutMs?(): number;
  /** the SDK's own log lines (a malformed event's raw data among them), sanitised and shortened */
  debug?(text: string): void;
}

type StopReason = Extract<ProviderEvent, { type: "done" }>["stopReason"];

function stopReason(r: string | null | undefined): StopReason {
  switch (r) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "tool_use":
      return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    case "refusal":
      return "refusal";
    default:
      return "other";
  }
}

interface UsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** message_delta usage is cumulative; fields it leaves null keep message_start's value. */
function mergeUsage(u: Usage, f: UsageFields | undefined): void {
  if (!f) return;
  if (typeof f.input_tokens === "number") u.inputTokens = f.input_tokens;
  if (typeof f.output_tokens === "number") u.outputTokens = f.output_tokens;
  if (typeof f.cache_read_input_tokens === "number") u.cacheReadTokens = f.cache_read_input_tokens;
  if (typeof f.cache_creation_input_tokens === "number") u.cacheWriteTokens = f.cache_creation_input_tokens;
}

/**
 * The SDK prints deprecation notices with console.warn inside create(), synchronously; on a terminal
 * host that would scribble over the UI on every step. Capture them for the duration of that call only.
 */
function quietly<T>(call: () => T, notice: (text: string) => void): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => notice(args.map(String).join(" ").split("\n")[0]!);
  try {
    return call();
  } finally {
    console.warn = warn;
  }
}

export function createAnthropicProvider(opts: AnthropicOptions): Provider {
  const seen = new Set<string>();
  let client: { key: string; baseURL: string | undefined; sdk: MessagesClient } | undefined;
  const clientFor = (key: string, baseURL: string | undefined): MessagesClient => {
    if (!client || client.key !== key || client.baseURL !== baseURL) {
      // maxRetries 0: the engine owns retries and backoff; authToken null: never send a stray bearer token
      // fetch: idleFetch, so every chunk of bytes (pings included) restarts the request's idle bound;
      // logger: the SDK would print a malformed event's raw data to the console
      const say = (...args: unknown[]) => opts.debug?.(`anthropic sdk: ${printableText(args.map(String).join(" "))}`);
      const logger = { error: say, warn: say, info: () => undefined, debug: () => undefined };
      client = { key, baseURL, sdk: new MessagesClient({ apiKey: key, authToken: null, baseURL: baseURL ?? null, maxRetries: 0, fetch: idleFetch, logger }) };
    }
    return client.sdk;
  };

  const noKey = () => new ProviderError("auth", `no Anthropic API key: ${FIX_KEY}`);
  return {
    id: "anthropic",
    models: anthropicModels,
    ready: () => (opts.apiKey() ? undefined : noKey()),
    async *stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const key = opts.apiKey();
      if (!key) throw noKey();
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      const sdk = clientFor(key, opts.baseURL());
      const idle = new IdleWatch(signal, opts.idleTimeoutMs?.() ?? 0, `the Anthropic API at ${sdk.baseURL}`);
      const fail = (e: unknown) => (idle.fired ? idle.error() : toProviderError(e, signal, sdk.baseURL));
      let stream: AsyncIterable<RawMessageStreamEvent> & { controller: AbortController };
      try {
        stream = await withIdleWatch(idle, () =>
          quietly(() => sdk.messages.create(toAnthropicRequest(req, opts.cacheTtl()), { signal: idle.signal }), (t) => {
            if (seen.has(t)) return;
            seen.add(t);
            opts.notice?.(t);
          }),
        );
      } catch (e) {
        idle.stop();
        throw fail(e);
      }
      const usage = emptyUsage();
      const tools = new Map<number, { id: string; name: string; json: string }>();
      let reason: StopReason = "other";
      let stopped = false;
      try {
        for await (const ev of stream) {
          switch (ev.type) {
            case "message_start":
              mergeUsage(usage, ev.message.usage);
              break;
            case "content_block_start":
              if (ev.content_block.type === "tool_use") tools.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: "" });
              else if (ev.content_block.type === "text" && ev.content_block.text) yield { type: "text_delta", text: ev.content_block.text };
              break;
            case "content_block_delta":
              if (ev.delta.type === "text_delta") yield { type: "text_delta", text: ev.delta.text };
              else if (ev.delta.type === "input_json_delta") {
                const t = tools.get(ev.index);
                if (t) t.json += ev.delta.partial_json;
              }
              break;
            case "content_block_stop": {
              const t = tools.get(ev.index);
              if (t) {
                tools.delete(ev.index);
                yield { type: "tool_call", call: toolCall(t) };
              }
              break;
            }
            case "message_delta":
              mergeUsage(usage, ev.usage as UsageFields);
              reason = stopReason(ev.delta.stop_reason);
              break;
            case "message_stop":
              stopped = true;
              break;
          }
        }
      } catch (e) {
        throw fail(e);
      } finally {
        idle.stop();
        if (!stopped) stream.controller.abort();
      }
      if (!stopped) {
        // the SDK ends the iteration quietly when its request is aborted: the idle bound, or the caller
        if (idle.fired) throw idle.error();
        if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
        throw new ProviderError("network", "the Anthropic stream ended before message_stop (connection dropped mid-answer)");
      }
      yield { type: "usage", usage };
      yield { type: "done", stopReason: reason };
    },
  };
}

function toolCall(t: { id: string; name: string; json: string }): ToolCall {
  if (t.json.trim() === "") return { id: t.id, name: t.name, input: {} };
  let input: unknown;
  try {
    input = JSON.parse(t.json);
  } catch {
    // a truncated or malformed input: retrying the request is the only fix
    throw new ProviderError("server", `Anthropic sent malformed JSON input for tool '${t.name}'`);
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) throw new ProviderError("server", `Anthropic sent a non-object input for tool '${t.name}'`);
  return { id: t.id, name: t.name, input: input as Record<string, unknown> };
}
