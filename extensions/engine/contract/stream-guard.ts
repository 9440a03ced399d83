/**
 * Guards for a provider's stream.
 *
 * IdleWatch: the idle bound (provider.idle_timeout_s). A stream that sends nothing — no data, no ping —
 * for that long is aborted and surfaces as a `network` ProviderError, which the engine retries like a
 * dropped connection (with its retry notice). A provider arms one per request: `signal` goes to the SDK
 * call (so the wait for the response headers is bounded too) and the SDK's fetch is `idleFetch`, which
 * touches the watch of the request it runs for on every chunk of bytes — an SSE ping the SDK swallows
 * still counts as activity.
 *
 * printableText: what a provider sent, fit for one line on a terminal (no control sequences, shortened).
 */

/** provider.idle_timeout_s when the config names none. */
export const DEFAULT_IDLE_TIMEOUT_S = 90;
