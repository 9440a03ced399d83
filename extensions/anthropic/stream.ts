/**
 * One streaming Messages request mapped to ProviderEvents: the part every route to Claude shares (the
 * Anthropic API, Amazon Bedrock, Google Vertex AI), given an SDK client that speaks the route.
 */
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";
import { type ModelRequest, type ProviderEvent, type ToolCall, type Usage } from "../engine/api.js";
import { IdleWatch, ProviderError, emptyUsage, withIdleWatch } from "../engine/kit.js";
import { toAnthropicRequest, type CacheTtl } from "./messages.js";
import { ANTHROPIC_ROUTE, toProviderError, type MessagesRoute } from "./errors.js";

/** The slice of an SDK client (Anthropic, AnthropicBedrock, AnthropicVertex) a step uses. */
export interface MessagesSdk {
  baseURL: string;
  messages: {
    create(body: MessageCreateParamsStreaming, options: { signal: AbortSignal }): PromiseLike<AsyncIterable<RawMessageStreamEvent> & { controller: AbortController }>;
  };
}

export interface StreamOptions {
  cacheTtl: CacheTtl;
  /** a stream silent this long (pings count as activity) is aborted and retried; 0: no bound */
  idleTimeoutMs: number;
  route?: MessagesRoute;
  /**
   * fields a route's wire body needs beyond the Messages ones (Bedrock's and Vertex's documented
   * anthropic_version: their SDKs would otherwise copy the Anthropic API's version header into it)
   */
  body?: Record<string, unknown>;
  /** SDK notices printed with console.warn inside create(), once per distinct text */
  notice?(text: string): void;
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

/** Stream one step through `sdk`; errors come out as provider errors worded for `opts.route`. */
export async function* streamMessages(sdk: MessagesSdk, req: ModelRequest, signal: AbortSignal, opts: StreamOptions): AsyncIterable<ProviderEvent> {
  const route = opts.route ?? ANTHROPIC_ROUTE;
  const svc = route.service;
  if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
  const idle = new IdleWatch(signal, opts.idleTimeoutMs, `the ${svc} API at ${sdk.baseURL}`);
  const fail = (e: unknown) => (idle.fired ? idle.error() : toProviderError(e, signal, sdk.baseURL, route));
  let stream: AsyncIterable<RawMessageStreamEvent> & { controller: AbortController };
  try {
    stream = await withIdleWatch(idle, () => quietly(() => sdk.messages.create({ ...toAnthropicRequest(req, opts.cacheTtl), ...opts.body }, { signal: idle.signal }), (t) => opts.notice?.(t)));
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
              yield { type: "tool_call", call: toolCall(t, svc) };
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
      throw new ProviderError("network", `the ${svc} stream ended before message_stop (connection dropped mid-answer)`);
    }
    yield { type: "usage", usage };
    yield { type: "done", stopReason: reason };
}

function toolCall(t: { id: string; name: string; json: string }, svc: string): ToolCall {
  if (t.json.trim() === "") return { id: t.id, name: t.name, input: {} };
  let input: unknown;
  try {
    input = JSON.parse(t.json);
  } catch {
    // a truncated or malformed input: retrying the request is the only fix
    throw new ProviderError("server", `${svc} sent malformed JSON input for tool '${t.name}'`);
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) throw new ProviderError("server", `${svc} sent a non-object input for tool '${t.name}'`);
  return { id: t.id, name: t.name, input: input as Record<string, unknown> };
}
