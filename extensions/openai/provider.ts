/** The OpenAI provider: chat completions with streaming, for api.openai.com or any compatible server. */
import OpenAI from "openai";
import { type ModelInfo, type ModelRequest, type Provider, type ProviderEvent, type ToolCall } from "../engine/api.js";
import { IdleWatch, ProviderError, emptyUsage, idleFetch, printableText, withIdleWatch } from "../engine/kit.js";
import { toChatRequest } from "./messages.js";
import { DEFAULT_BASE_URL, FIX_KEY, fixKey, toProviderError, type ErrorWording } from "./errors.js";
import { openaiModels } from "./models.js";
import { estimateUsage, lacksStreamOptions, lacksTools, type Feature } from "./features.js";

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
  /** the route: provider id and how messages name it; default the OpenAI route itself */
  route?: OpenAIRoute;
}

/** An OpenAI-compatible route other than api.openai.com (a preset: ollama, openrouter, a user's own). */
export interface OpenAIRoute {
  /** provider id: the part before the slash of `<id>/<model>` */
  id: string;
  /** how messages name the service ("OpenRouter"); default the id */
  label?: string;
  /** the endpoint when no override names one */
  defaultBaseURL: string;
  /** true: no request is sent without a key (e.g. openrouter); else a placeholder key is sent */
  requiresKey: boolean;
  /** how to fix a missing or rejected key, and what to check when the server cannot be reached */
  wording(baseURL: string): ErrorWording;
  /** extra request headers (attribution headers, a custom preset's headers) */
  headers?(): Record<string, string>;
  models?(): Array<Omit<ModelInfo, "known">>;
  describe?(name: string): Omit<ModelInfo, "known"> | undefined;
  /**
   * A feature this server lacks (no tool support for a model, no usage, no images): told once per session,
   * model and feature (the provider keeps count), never per step.
   */
  lacks?(sessionId: string, text: string): void;
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
  const route = opts.route;
  const id = route?.id ?? "openai";
  let client: { key: string; baseURL: string; headers: string; sdk: OpenAI } | undefined;
  const clientFor = (key: string, baseURL: string): OpenAI => {
    const defaultHeaders = route?.headers?.() ?? {};
    const headers = JSON.stringify(defaultHeaders);
    if (!client || client.key !== key || client.baseURL !== baseURL || client.headers !== headers) {
      // maxRetries 0: the engine owns retries; organization/project null: never pick them up from the env
      // fetch: idleFetch, so every chunk of bytes restarts the request's idle bound; logger: the SDK
      // would print a malformed chunk's raw data to the console
      const say = (...args: unknown[]) => opts.debug?.(`openai sdk: ${printableText(args.map(String).join(" "))}`);
      const logger = { error: say, warn: say, info: () => undefined, debug: () => undefined };
      client = { key, baseURL, headers, sdk: new OpenAI({ apiKey: key, baseURL, maxRetries: 0, organization: null, project: null, fetch: idleFetch, logger, defaultHeaders }) };
    }
    return client.sdk;
  };

  const endpoint = () => (opts.baseURL() ?? route?.defaultBaseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const wording = (baseURL: string): ErrorWording => route?.wording(baseURL) ?? { keyFix: fixKey(baseURL, opts.baseURL() !== undefined) };
  // the official endpoint (with no base URL configured) or a route that says so needs a key up front; a
  // local server gets a placeholder
  const noKey = (baseURL: string) => {
    if (opts.apiKey()) return undefined;
    if (route) return route.requiresKey ? new ProviderError("auth", `no ${route.label ?? id} API key: ${route.wording(baseURL).keyFix}`) : undefined;
    return baseURL === DEFAULT_BASE_URL ? new ProviderError("auth", `no OpenAI API key: ${opts.baseURL() === undefined ? FIX_KEY : fixKey(baseURL, true)}`) : undefined;
  };
  // told once: `${sessionId} ${model} ${feature}`; models the server refused tools for are sent none
  const told = new Set<string>();
  const noToolModels = new Set<string>();
  const noStreamOptions = new Set<string>();
  const lack = (req: ModelRequest, feature: Feature, text: string) => {
    const key = `${req.sessionId}\u0000${req.model.name}\u0000${feature}`;
    if (!route?.lacks || told.has(key)) return;
    told.add(key);
    route.lacks(req.sessionId, `${id}/${req.model.name}: ${text}`);
  };
  return {
    id,
    models: route ? route.models : openaiModels,
    ...(route?.describe ? { describe: route.describe } : {}),
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
      const fail = (e: unknown) => (idle.fired ? idle.error() : toProviderError(e, signal, baseURL, wording(baseURL)));
      if (route && req.rows.some((r) => r.role === "user" && (r.images?.length ?? 0) > 0)) lack(req, "images", "this route sends text only: an attached image is named in the prompt, not sent");
      let body = toChatRequest(req, { officialEndpoint: official });
      if (noToolModels.has(req.model.name)) body = withoutKey(body, "tools");
      if (noStreamOptions.has(req.model.name)) body = withoutKey(body, "stream_options");
      let stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk> & { controller: AbortController };
      try {
        // a server that refuses a part of the request for this model (tools, stream_options): said once,
        // then this and later requests go without it
        for (let attempt = 0; ; attempt++) {
          try {
            const b = body;
            stream = await withIdleWatch(idle, () => sdk.chat.completions.create(b, { signal: idle.signal }));
            break;
          } catch (e) {
            if (!route || idle.fired || attempt >= 2) throw e;
            if (body.tools && lacksTools(e)) {
              noToolModels.add(req.model.name);
              lack(req, "tools", "the server does not support tool calls for this model: it is sent no tools and can only answer in text");
              body = withoutKey(body, "tools");
            } else if (body.stream_options && lacksStreamOptions(e)) {
              // its usage notice follows when the answer comes without usage
              noStreamOptions.add(req.model.name);
              body = withoutKey(body, "stream_options");
            } else throw e;
          }
        }
      } catch (e) {
        idle.stop();
        throw fail(e);
      }
      const usage = emptyUsage();
      let reported = false;
      let answered = "";
      const calls = new Map<number, { id: string; name: string; args: string }>();
      let finish: string | null | undefined;
      let finished = false;
      let complete = false;
      try {
        for await (const chunk of stream) {
          if (chunk.usage) {
            reported = true;
            const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
            // Usage.inputTokens is uncached input, as Anthropic reports it
            usage.inputTokens = Math.max(0, chunk.usage.prompt_tokens - cached);
            usage.cacheReadTokens = cached;
            usage.outputTokens = chunk.usage.completion_tokens;
          }
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta;
          if (delta?.content) {
            answered += delta.content;
            yield { type: "text_delta", text: delta.content };
          }
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
      if (!reported) {
        // some servers send no usage chunk although stream_options.include_usage asked: estimated, said once
        Object.assign(usage, estimateUsage(body, answered + ordered.map(([, c]) => c.args).join("")));
        lack(req, "usage", "the server reports no token usage: the meter shows an estimate from the text's length");
      }
      yield { type: "usage", usage };
      yield { type: "done", stopReason: stopReason(finish, ordered.length > 0) };
    },
  };
}

/** The request without one optional field (the server refused it). */
function withoutKey<T extends object, K extends keyof T>(body: T, key: K): T {
  const copy = { ...body };
  delete copy[key];
  return copy;
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
