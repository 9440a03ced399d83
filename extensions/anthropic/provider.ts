/** The Anthropic provider: one streaming Messages request per step, mapped to ProviderEvents (stream.ts). */
import { MessagesClient } from "./client.js";
import { type ModelRequest, type Provider, type ProviderEvent } from "../engine/api.js";
import { ProviderError, printableText, idleFetch } from "../engine/kit.js";
import type { CacheTtl } from "./messages.js";
import { FIX_KEY } from "./errors.js";
import { anthropicModels } from "./models.js";
import { streamMessages } from "./stream.js";

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

/** The SDK logger shape, sending error and warn lines to `debug` made printable (never the console). */
export function sdkLogger(prefix: string, debug: ((text: string) => void) | undefined) {
  const say = (...args: unknown[]) => debug?.(`${prefix}: ${printableText(args.map(String).join(" "))}`);
  return { error: say, warn: say, info: () => undefined, debug: () => undefined };
}

/** `notice` called once per distinct text. */
export function onceEach(notice: ((text: string) => void) | undefined): (text: string) => void {
  const seen = new Set<string>();
  return (t) => {
    if (seen.has(t)) return;
    seen.add(t);
    notice?.(t);
  };
}

export function createAnthropicProvider(opts: AnthropicOptions): Provider {
  const notice = onceEach(opts.notice);
  let client: { key: string; baseURL: string | undefined; sdk: MessagesClient } | undefined;
  const clientFor = (key: string, baseURL: string | undefined): MessagesClient => {
    if (!client || client.key !== key || client.baseURL !== baseURL) {
      // maxRetries 0: the engine owns retries and backoff; authToken null: never send a stray bearer token
      // fetch: idleFetch, so every chunk of bytes (pings included) restarts the request's idle bound;
      // logger: the SDK would print a malformed event's raw data to the console
      const logger = sdkLogger("anthropic sdk", opts.debug);
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
      yield* streamMessages(clientFor(key, opts.baseURL()), req, signal, { cacheTtl: opts.cacheTtl(), idleTimeoutMs: opts.idleTimeoutMs?.() ?? 0, notice });
    },
  };
}
