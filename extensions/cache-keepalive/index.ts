/**
 * Cache keep-alive: every request's cache markers carry the provider's one-hour TTL; while a step waits (a
 * long bash, a sub-agent) or the session idles, the last request the session sent is sent again every
 * OC_CACHE_KEEPALIVE_MINUTES (default 50) with its output capped to one token, so the TTL restarts and the
 * prefix is a cache read when the wait ends instead of a re-write. At most OC_CACHE_KEEPALIVE_MAX touches
 * (default 48) per stretch — a real request starts a new stretch; a failed touch is sent once more after
 * min(interval / 2, 3 min), then the keep-alive gives up until the next real request. Esc on a running
 * turn does not stop it (the next prompt reads the same prefix); closing the session does. Timers are
 * unref'd: a `run` ends without waiting for them. Each touch's usage and cost go into session.totals and
 * a `session.cache.touched` event (EngineService.emit); storage records it. See docs/cache-keepalive.md.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService, type ModelRequest, type Session, type Usage } from "../engine/api.js";
import { emptyUsage } from "../engine/kit.js";
import type { StorageService } from "../storage/api.js";
import { CACHING_PROVIDERS, DEFAULT_KEEPALIVE_MAX, DEFAULT_KEEPALIVE_MINUTES, type CacheKeepaliveService, type KeepaliveSettings, type KeepaliveState } from "./api.js";
import { parseMax, parseMinutes, retryDelayMs } from "./kit/shared.js";

interface Entry {
  session: Session;
  request: ModelRequest;
  /** bumped by each real request: a touch of an older stretch does not schedule the next */
  gen: number;
  touches: number;
  /** the current touch already failed once */
  retried: boolean;
  gaveUp?: KeepaliveState["gaveUp"];
  timer?: NodeJS.Timeout;
  inFlight: boolean;
  closed: boolean;
  abort: AbortController;
}

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const storage = () => ctx.services.tryGet("storage");
    const settings = readSettings(ctx);
    const entries = new Map<string, Entry>();
    const service: CacheKeepaliveService = {
      settings: () => ({ ...settings }),
      state: (id) => {
        const e = entries.get(id);
        return e ? { armed: e.timer !== undefined || e.inFlight, touches: e.touches, ...(e.gaveUp ? { gaveUp: e.gaveUp } : {}) } : undefined;
      },
    };
    ctx.provide("cache-keepalive", service);
    if (settings.intervalMs <= 0 || settings.max <= 0) return;
    const ttl = ctx.config.get("provider.anthropic.cache_ttl");
    // markers without the one-hour TTL (5m, off): nothing a 50-minute touch could keep alive
    const caching = (provider: string) => CACHING_PROVIDERS.includes(provider) && (provider !== "anthropic" || ttl === undefined || ttl === "1h");

    const schedule = (e: Entry, ms: number) => {
      if (e.timer) clearTimeout(e.timer);
      const gen = e.gen;
      e.timer = setTimeout(() => {
        e.timer = undefined;
        void touch(e, gen);
      }, ms);
      e.timer.unref();
    };

    const touch = async (e: Entry, gen: number): Promise<void> => {
      if (e.closed || gen !== e.gen) return;
      const req: ModelRequest = { ...e.request, maxOutputTokens: 1 };
      const provider = engine.providers.get(req.model.provider);
      if (!provider) return;
      let usage: Usage = emptyUsage();
      const n = e.touches + 1;
      e.inFlight = true;
      try {
        // nothing streams to hosts: the one output token is dropped, only the usage is kept
        for await (const ev of provider.stream(req, e.abort.signal)) if (ev.type === "usage") usage = ev.usage;
      } catch (err) {
        e.inFlight = false;
        if (e.closed || gen !== e.gen) return;
        const why = err instanceof Error ? err.message : String(err);
        if (!e.retried) {
          e.retried = true;
          const wait = retryDelayMs(settings.intervalMs);
          ctx.log.debug(`cache-keepalive: touch of ${e.session.info.id} failed (${why}); once more in ${Math.round(wait / 1000)} s`);
          schedule(e, wait);
        } else {
          e.gaveUp = "failed";
          ctx.log.debug(`cache-keepalive: touch of ${e.session.info.id} failed again (${why}); giving up until the next request`);
        }
        return;
      }
      e.inFlight = false;
      if (e.closed) return;
      const costUsd = engine.models.cost(req.model, usage);
      const t = e.session.totals;
      t.usage = {
        inputTokens: t.usage.inputTokens + usage.inputTokens,
        outputTokens: t.usage.outputTokens + usage.outputTokens,
        cacheReadTokens: t.usage.cacheReadTokens + usage.cacheReadTokens,
        cacheWriteTokens: t.usage.cacheWriteTokens + usage.cacheWriteTokens,
      };
      t.costUsd += costUsd;
      // a real request came while it was in flight: counted (money was spent) but no longer scheduling
      const stale = gen !== e.gen;
      if (!stale) e.touches = n;
      engine.emit({ type: "session.cache.touched", sessionId: e.session.info.id, touch: n, usage, costUsd, totals: t });
      storage()?.recordEvent(e.session.info.id, "session.cache.touched", { touch: n, usage, costUsd });
      storage()?.saveTotals?.(e.session.info.id, t);
      if (stale) return;
      e.retried = false;
      if (e.touches >= settings.max) e.gaveUp = "max";
      else schedule(e, settings.intervalMs);
    };

    engine.hooks.modelRequest.tap({ name: ctx.id, stage: "sent" }, (req, step) => {
      if (!caching(req.model.provider)) return req;
      const s = step.session;
      let e = entries.get(s.info.id);
      if (!e || e.closed) {
        e = { session: s, request: req, gen: 0, touches: 0, retried: false, inFlight: false, closed: false, abort: new AbortController() };
        entries.set(s.info.id, e);
      }
      e.session = s;
      // a snapshot: the window may be the session's own rows array, which grows after this request
      e.request = { ...req, rows: [...req.rows], system: [...req.system], tools: [...req.tools], extra: { ...req.extra } };
      e.gen += 1;
      e.touches = 0;
      e.retried = false;
      e.gaveUp = undefined;
      schedule(e, settings.intervalMs);
      return req;
    });

    const stop = (id: string) => {
      const e = entries.get(id);
      if (!e) return;
      e.closed = true;
      if (e.timer) clearTimeout(e.timer);
      e.timer = undefined;
      e.abort.abort();
      entries.delete(id);
    };
    engine.hooks.sessionEnd.tap({ name: ctx.id }, ({ session }) => stop(session.info.id));
    // an idle session left memory and was opened again (a new object): the touches count on the one in use
    engine.hooks.sessionStart.tap({ name: ctx.id }, ({ session }) => {
      const e = entries.get(session.info.id);
      if (e) e.session = session;
    });
    ctx.kernelHooks.shutdown.tap({ name: ctx.id }, () => {
      for (const id of [...entries.keys()]) stop(id);
    });
  },
};

/** OC_CACHE_KEEPALIVE_MINUTES and OC_CACHE_KEEPALIVE_MAX; a bad value is ignored with one warning. */
function readSettings(ctx: ExtensionContext): KeepaliveSettings {
  const read = <T>(name: string, parse: (t: string) => T | undefined, fallback: T, what: string): T => {
    const raw = ctx.env[name];
    if (raw === undefined || raw.trim() === "") return fallback;
    const v = parse(raw);
    if (v === undefined) ctx.log.warn(`${name}=${raw} is not ${what}; using ${String(fallback)}`);
    return v ?? fallback;
  };
  const minutes = read("OC_CACHE_KEEPALIVE_MINUTES", parseMinutes, DEFAULT_KEEPALIVE_MINUTES, "a number of minutes (0 turns the keep-alive off)");
  const max = read("OC_CACHE_KEEPALIVE_MAX", parseMax, DEFAULT_KEEPALIVE_MAX, "a whole number (0 turns the keep-alive off)");
  return { intervalMs: Math.round(minutes * 60_000), max };
}
