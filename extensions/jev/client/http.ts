/**
 * One ask over HTTP: truncation to the cap, the injection guard, the per-session rate cap, the back-off
 * window, the deadline, no redirect followed. Never throws: a failure is a result with its outcome.
 *   - transport errors and 429: `unavailable` and an exponential back-off window (1 s doubling to 60 s);
 *   - 503 with code 7003 and malformed answers: `invalid`, never retried, not counted to the back-off;
 *   - a 3xx: `unavailable` (the redirect is not followed: `redirect: "manual"`).
 * The key goes only to api.typesafe.ai and ocean.headers only to a *.workers.dev host (config.ts decides).
 */
import type { JevAsk, JevResult } from "../api.js";
import type { JevEndpoint } from "../config.js";
import { findInjection } from "../guard.js";
import { fitState, stateHash } from "../state.js";
import { errorCode, parseResponse, requestBody, serverMs, STATE_TOO_LONG } from "./wire.js";

export const RATE_CAP_PER_MINUTE = 60;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 60_000;
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Replace URLs in a message (never log the endpoint). */
export const scrubUrls = (s: string) => s.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'")]+/gi, "<url>");

export interface JevClient {
  ask(req: JevAsk): Promise<JevResult>;
}

export function createClient(opts: { endpoint?: JevEndpoint; model: string; offReason?: string; now?: () => number; fetchImpl?: typeof fetch }): JevClient {
  const now = opts.now ?? Date.now;
  const doFetch = opts.fetchImpl ?? fetch;
  const asks = new Map<string, number[]>();
  let backoffUntil = 0;
  let failures = 0;
  const backoff = () => {
    failures += 1;
    backoffUntil = now() + Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
  };

  return {
    async ask(req) {
      const t0 = now();
      const hash = stateHash(req.state);
      const fit = fitState(req.state);
      const base = { stateHash: hash, truncated: fit.truncated, state: fit.state };
      const fail = (outcome: "unavailable" | "invalid" | "injection" | "off", reason: string): JevResult => ({ ok: false, outcome, reason: scrubUrls(reason), latencyMs: now() - t0, ...base });
      const ep = opts.endpoint;
      if (!ep) return fail("off", opts.offReason ?? "the layer is off");
      const hit = findInjection(fit.state, req.exempt ?? ["task", "goal", "prompt"]);
      if (hit) return fail("injection", `injection guard: the state addresses the judge ("${hit}")`);
      const recent = (asks.get(req.sessionId) ?? []).filter((t) => t > t0 - 60_000);
      if (recent.length >= RATE_CAP_PER_MINUTE) return fail("unavailable", `rate cap: ${RATE_CAP_PER_MINUTE} asks a minute in this session`);
      if (t0 < backoffUntil) return fail("unavailable", `back-off window (${backoffUntil - t0} ms left after a failure)`);
      recent.push(t0);
      asks.set(req.sessionId, recent);
      const headers: Record<string, string> = { "content-type": "application/json", "x-jev-point": req.point };
      if (ep.headers) for (const [k, v] of Object.entries(ep.headers)) headers[k] = v;
      if (ep.key) headers.authorization = `Bearer ${ep.key}`;
      const timeout = AbortSignal.timeout(req.deadlineMs ?? DEFAULT_TIMEOUT_MS);
      const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
      let res: Response;
      try {
        res = await doFetch(ep.url, { method: "POST", headers, body: requestBody(opts.model, fit.state, req.questions), redirect: "manual", signal });
      } catch (e) {
        if (timeout.aborted) return fail("unavailable", `deadline: no answer within ${req.deadlineMs ?? DEFAULT_TIMEOUT_MS} ms`);
        if (req.signal?.aborted) return fail("unavailable", "aborted");
        backoff();
        return fail("unavailable", `transport: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`);
      }
      const sMs = serverMs(res.headers.get("server-timing"));
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        body = undefined;
      }
      if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) return fail("unavailable", `the endpoint answered a redirect (HTTP ${res.status}); not followed`);
      if (res.status === 503 && errorCode(body) === STATE_TOO_LONG) return fail("invalid", "HTTP 503 code 7003: the endpoint refused the state as too long");
      if (res.status === 429) {
        backoff();
        return fail("unavailable", "HTTP 429: rate limited");
      }
      if (!res.ok) {
        if (res.status >= 500) backoff();
        return fail("unavailable", `HTTP ${res.status}`);
      }
      if (ep.worker && res.headers.get("x-typesafe-backend")?.trim().toLowerCase() !== "cloudflare") return fail("invalid", "the worker's answer does not name backend cloudflare (x-typesafe-backend); refused");
      const parsed = parseResponse(body, req.questions, opts.model);
      if (!parsed.ok) return fail("invalid", parsed.reason);
      failures = 0;
      backoffUntil = 0;
      return {
        ok: true,
        answers: parsed.answers,
        latencyMs: now() - t0,
        ...(sMs !== undefined ? { serverMs: sMs } : {}),
        model: parsed.model,
        ...(parsed.inputTokens !== undefined ? { inputTokens: parsed.inputTokens } : {}),
        ...base,
      };
    },
  };
}
