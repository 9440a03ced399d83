/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/stream-guard.ts, which keeps the types). */
import { AsyncLocalStorage } from "node:async_hooks";
import { ProviderError } from "./provider.js";
import { DEFAULT_IDLE_TIMEOUT_S } from "../contract/stream-guard.js";

export class IdleWatch {
  /** the caller's signal, or the idle bound: whichever fires first */
  readonly signal: AbortSignal;
  private readonly own = new AbortController();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  fired = false;

  constructor(
    outer: AbortSignal,
    readonly ms: number,
    private readonly what: string,
  ) {
    this.signal = AbortSignal.any([outer, this.own.signal]);
    this.touch();
  }

  /** Something arrived: the bound starts over. */
  touch(): void {
    if (this.stopped || !(this.ms > 0) || !Number.isFinite(this.ms)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.own.abort(this.error());
    }, this.ms);
    this.timer.unref?.();
  }

  /** The request is over (finished, failed or cancelled): no timer left behind. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** What the engine sees when the bound fired. */
  error(): ProviderError {
    const s = this.ms % 1000 === 0 ? `${this.ms / 1000} s` : `${(this.ms / 1000).toFixed(1)} s`;
    return new ProviderError("network", `${this.what} sent nothing for ${s} (provider.idle_timeout_s); the request was aborted`);
  }
}

/** provider.idle_timeout_s (seconds, > 0) as ms; anything else: the default. */
export function idleTimeoutMs(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.round(n * 1000) : DEFAULT_IDLE_TIMEOUT_S * 1000;
}

const current = new AsyncLocalStorage<IdleWatch>();

/** Run `start` (the SDK call that sends the request) so that idleFetch knows whose bytes it reads. */
export function withIdleWatch<T>(watch: IdleWatch, start: () => T): T {
  return current.run(watch, start);
}

/**
 * A fetch for the SDKs' `fetch` option: the request as globalThis.fetch sends it, its body relayed
 * through a pass-through that touches the request's IdleWatch (set by withIdleWatch) on every chunk.
 */
export async function idleFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const watch = current.getStore();
  const res = await fetch(input, init);
  if (!watch || !res.body) return res;
  watch.touch();
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        watch.touch();
        out.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** One terminal-safe line of at most `max` characters: escape sequences and control characters out, whitespace collapsed. */
export function printableText(s: string, max = 200): string {
  const flat = s
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;?]*[ -\/]*[@-~]|\u001b[\]P^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b./g, "")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max).join("")}… (${chars.length} characters)`;
}
