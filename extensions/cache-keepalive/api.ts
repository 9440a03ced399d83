/**
 * The published contract `oceancode/api/cache-keepalive` (service "cache-keepalive"): the keep-alive's
 * settings and what it is doing for a session. The event it sends is the engine's `session.cache.touched`
 * (CacheTouchedEvent in oceancode/api/engine).
 */

/** Default minutes between touches: under the one-hour cache TTL the provider markers carry. */
export const DEFAULT_KEEPALIVE_MINUTES = 50;
/** Default touches per wait or idle stretch (≈ 40 h at 50 minutes); a real request starts a new stretch. */
export const DEFAULT_KEEPALIVE_MAX = 48;
/** A failed touch is sent once more after min(interval / 2, this), then the keep-alive gives up. */
export const MAX_RETRY_DELAY_MS = 3 * 60_000;
/** Providers whose requests carry cache markers with a TTL worth keeping alive. */
export const CACHING_PROVIDERS: readonly string[] = ["anthropic"];

export interface KeepaliveSettings {
  /** ms between touches; 0: off */
  intervalMs: number;
  /** touches per stretch; 0: off */
  max: number;
}

export interface KeepaliveState {
  /** a touch is scheduled (or in flight) */
  armed: boolean;
  /** touches sent in the current stretch */
  touches: number;
  /** the stretch ended: the maximum was reached or a touch failed twice */
  gaveUp?: "max" | "failed";
}

export interface CacheKeepaliveService {
  settings(): KeepaliveSettings;
  /** What the keep-alive is doing for a session; undefined when it never saw a request of it. */
  state(sessionId: string): KeepaliveState | undefined;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    "cache-keepalive": CacheKeepaliveService;
  }
}
