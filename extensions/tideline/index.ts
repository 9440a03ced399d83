/**
 * The tideline: keeps the model's window under a line by cutting the oldest closed block of steps
 * (contextBuild, afterStep, promptTooLong), and serves the session meter. See docs/ledger.md.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService, Session, ModelInfo } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import type { LedgerService } from "../ledger/api.js";
import { type SessionMeter, type TidelineService, type TidelineLine, type TidelineSpec } from "./api.js";
import { parseTidelineSpec, statusText, formatTokens } from "./kit/shared.js";
import { parseSpec } from "./spec.js";
import { resolveLine, type TidelineConfig, type ModelLimits } from "./line.js";
import { firstAfter, pointerLine } from "./blocks.js";
import { elideBoundary, elideRows, elideSettings, elideToolRow } from "./elide.js";
import { stateOf, resumeCutSeq, estimatedCut, EXT_ID, type TidelineState } from "./state.js";
import { tidelineRoutes } from "./routes.js";

function overrideOf(session: Session): TidelineSpec | undefined {
  const raw = session.info.overrides.tideline;
  if (typeof raw !== "string") return undefined;
  const p = parseTidelineSpec(raw);
  return p.ok ? p.spec : undefined;
}

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const ledger = () => ctx.services.tryGet("ledger");
    const storage = () => ctx.services.tryGet("storage");
    const enabled = ctx.config.get("ledger.enabled") !== false;
    const cfg = (ctx.config.get("ledger.tideline") ?? {}) as TidelineConfig;
    const elide = elideSettings(cfg.elide);
    const bySession = new Map<string, Session>();
    const clampNoted = new Set<string>();

    const lineFor = (session: Session, model: ModelLimits & { id?: string }): TidelineLine => {
      const l = resolveLine(cfg, model, overrideOf(session));
      const key = `${model.id ?? "?"}:${l.line}`;
      if (l.clamped && !clampNoted.has(key)) {
        clampNoted.add(key);
        ctx.log.info(`tideline: the configured line is above what ${model.id ?? "the model"} can hold; clamped to ${formatTokens(l.line)} (its context minus the output allowance)`);
      }
      return l;
    };

    /** The model's limits without asking the catalogue to guess (an unknown id there logs a notice). */
    const modelOf = (id: string): ModelInfo => {
      const listed = engine.models.list().find((m) => m.id === id);
      if (listed) return listed;
      const slash = id.indexOf("/");
      const described = slash > 0 ? engine.providers.get(id.slice(0, slash))?.describe?.(id.slice(slash + 1)) : undefined;
      if (described) return { ...described, known: true };
      return engine.models.resolve(id);
    };

    const ensureLine = (session: Session, st: TidelineState, model: ModelInfo, turn: number): TidelineLine => {
      if (!st.line || st.lineTurn !== turn) {
        st.line = lineFor(session, model);
        st.lineTurn = turn;
        st.contextWindow = model.contextWindow;
        st.model = model.id;
      }
      return st.line;
    };

    if (enabled) {
      engine.hooks.sessionStart.tap({ name: EXT_ID }, async ({ session, source }) => {
        bySession.set(session.info.id, session);
        const info = session.info;
        if (info.parentId && info.overrides.tideline === undefined) {
          // a child inherits its parent's /tideline override (the percentage, or the limit)
          let parent = bySession.get(info.parentId);
          if (!parent) parent = await engine.openSession(info.parentId).catch(() => undefined);
          const inherited = parent?.info.overrides.tideline;
          if (typeof inherited === "string") {
            info.overrides.tideline = inherited;
            storage()?.saveInfo(info);
          }
        }
        // the tracker is in memory only: the first step of a reopened session places the window as a cut would have
        if (source === "resume" && session.rows.length > 0) stateOf(session).resumePending = true;
      });
      engine.hooks.sessionEnd.tap({ name: EXT_ID }, ({ session }) => {
        bySession.delete(session.info.id);
      });

      engine.hooks.contextBuild.tap({ name: EXT_ID }, async (win, sctx) => {
        const st = stateOf(sctx.session);
        const l = ensureLine(sctx.session, st, sctx.model, sctx.turn);
        if (st.resumePending) {
          st.resumePending = false;
          const cut = resumeCutSeq(sctx.session.rows, Math.max(0, l.line - l.block));
          if (cut > st.tracker.cutSeq) {
            st.tracker.cutSeq = cut;
            st.cutPending = true;
            ledger()?.markPastTideline(sctx.session.info.id, cut);
          }
        }
        const cutSeq = st.tracker.cutSeq;
        if (cutSeq <= 0) return win;
        if (st.cutPending) {
          // the pointer must only point at transcript lines that are already written
          await ledger()?.settle();
          st.cutPending = false;
          // Rows past the line now leave memory when storage holds them, so a session's memory stays flat.
          // Here, not in afterStep: every afterStep tap (storage, the ledger) has queued its rows by now.
          if (storage()) engine.releaseRows(sctx.session, cutSeq);
          const ld = ledger();
          if (elide.enabled && ld) {
            // Elision moves only here, at a cut, so the prompt cache is rebuilt once per cut, never per step.
            for (const seq of st.elided.keys()) if (seq <= cutSeq) st.elided.delete(seq);
            const to = elideBoundary(win.rows, elide.keepSteps);
            if (to > st.elideSeq) {
              const dir = ld.dirOf(sctx.session.info.id);
              const savings: Array<{ seq: number; tokens: number }> = [];
              for (let k = firstAfter(win.rows, Math.max(cutSeq, st.elideSeq)); k < win.rows.length && win.rows[k]!.seq <= to; k++) {
                const r = win.rows[k]!;
                if (r.role !== "tool") continue;
                const e = elideToolRow(r, elide, dir);
                st.elided.set(r.seq, e.row);
                if (e.savedChars > 0) savings.push({ seq: r.seq, tokens: Math.floor(e.savedChars / 4) });
              }
              st.elideSeq = to;
              st.tracker.shrink(savings);
              if (savings.length) ctx.log.debug(`tideline: session ${sctx.session.info.id}: elided ${savings.length} old tool output(s) up to seq ${to}`);
            }
          }
        }
        let i = firstAfter(win.rows, cutSeq);
        while (i < win.rows.length && win.rows[i]!.role === "tool") i++; // never an orphaned tool result
        const dir = ledger()?.dirOf(sctx.session.info.id);
        const kept = i === 0 ? win.rows : win.rows.slice(i);
        return {
          ...win,
          rows: elide.enabled && dir !== undefined ? elideRows(kept, st.elideSeq, elide, dir, st.elided) : kept,
          preface: [pointerLine(cutSeq, dir), ...win.preface],
        };
      });

      engine.hooks.afterStep.tap({ name: EXT_ID }, (rec) => {
        const session = rec.ctx.session;
        const st = stateOf(session);
        const l = ensureLine(session, st, rec.ctx.model, rec.ctx.turn);
        const u = rec.usage;
        const prompt = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
        const lastSeq = rec.tools?.seq ?? rec.assistant.seq;
        const nextSeq = Math.max(lastSeq + 1, session.nextSeq);
        const r = st.tracker.afterStep(rec.gaugeTokens, prompt, rec.assistant.seq, nextSeq, l.line, l.block);
        if (r.cuts > 0) {
          st.cutPending = true;
          ledger()?.markPastTideline(session.info.id, r.cutSeq);
          ctx.log.debug(`tideline: session ${session.info.id}: cut ${r.cuts} block(s); every row up to seq ${r.cutSeq} left the window`);
        }
      });

      engine.hooks.promptTooLong.tap({ name: EXT_ID }, (sctx) => {
        const st = stateOf(sctx.session);
        let r = st.tracker.cutAllClosed();
        let what = `cut ${r.cuts} closed block(s)`;
        if (r.cuts === 0) {
          const e = estimatedCut(sctx.session.rows, st.tracker.cutSeq);
          if (e) {
            r = st.tracker.cutTo(e.seq, e.tokens);
            what = `no closed block yet: cut the older ${e.rows} row(s), about ${formatTokens(e.tokens)} tokens by estimate,`;
          }
        }
        if (r.cuts > 0) {
          st.cutPending = true;
          ledger()?.markPastTideline(sctx.session.info.id, r.cutSeq);
        }
        ctx.log.info(`tideline: the provider refused the request as too long; ${what} before the retry`);
      });
    }

    const meter = (session: Session): SessionMeter => {
      const st = session.ext.get(EXT_ID) as TidelineState | undefined;
      const model = modelOf(session.info.model);
      const line = enabled ? (st?.line ?? lineFor(session, model)) : undefined;
      const used = st?.tracker.gauge ?? 0;
      const t = session.totals;
      return {
        sessionId: session.info.id,
        model: session.info.model,
        contextWindow: st?.contextWindow || model.contextWindow,
        used,
        enabled,
        ...(line ? { line, toGo: Math.max(0, line.line - used) } : {}),
        status: statusText(line, used, enabled),
        cuts: st?.tracker.cuts ?? 0,
        cutSeq: st?.tracker.cutSeq ?? 0,
        inputTokens: t.usage.inputTokens,
        outputTokens: t.usage.outputTokens,
        cacheReadTokens: t.usage.cacheReadTokens,
        cacheWriteTokens: t.usage.cacheWriteTokens,
        costUsd: t.costUsd,
      };
    };

    const service: TidelineService = {
      meter,
      parseSpec,
      lineFor: (session, model) => lineFor(session, model),
      cutSeq: (id) => {
        const s = bySession.get(id);
        return s ? stateOf(s).tracker.cutSeq : 0;
      },
    };
    ctx.provide("tideline", service);
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of tidelineRoutes(service)) routes.add(r, ctx.id);

    const sessionFor = async (id: string | undefined): Promise<Session | undefined> => {
      if (!id) return undefined;
      return bySession.get(id) ?? (await engine.openSession(id).catch(() => undefined));
    };

    ctx.registerSlash("tideline", async (args, host) => {
      const p = parseTidelineSpec(args);
      if (!p.ok) {
        host.reply(`/tideline: ${p.error}\n${p.usage}`);
        return;
      }
      const session = await sessionFor(host.sessionId);
      if (!session) {
        host.reply("/tideline: no open session");
        return;
      }
      if (p.spec.kind === "default") delete session.info.overrides.tideline;
      else session.info.overrides.tideline = p.text;
      storage()?.saveInfo(session.info);
      const l = lineFor(session, modelOf(session.info.model));
      const what = p.spec.kind === "default" ? "back to the configured default" : `set to ${p.text}`;
      host.reply(`tideline ${what} (${statusText(l, 0, enabled).replace(/: .*$/, "")}); applies from your next message on`);
    });

    ctx.registerSlash("context", async (_args, host) => {
      const session = await sessionFor(host.sessionId);
      if (!session) {
        host.reply("/context: no open session");
        return;
      }
      await ledger()?.settle();
      host.reply(formatMeter(meter(session)));
    });
  },
};

export function formatMeter(m: SessionMeter): string {
  const pct = m.contextWindow > 0 ? Math.round((m.used / m.contextWindow) * 100) : 0;
  return [
    `context   ${formatTokens(m.used)} / ${formatTokens(m.contextWindow)} (${pct}%) · ${m.model}`,
    // the guide's words, then a plain gloss of them (finding 55)
    m.enabled ? `${m.status}  (the tideline: the line in the context window past which the oldest steps are cut)` : m.status,
    `tokens    in ${formatTokens(m.inputTokens)} · out ${formatTokens(m.outputTokens)} · cache read ${formatTokens(m.cacheReadTokens)} · cache write ${formatTokens(m.cacheWriteTokens)}`,
    `spend     $${m.costUsd.toFixed(2)}`,
    `cuts      ${m.cuts}${m.cutSeq > 0 ? ` (every row up to seq ${m.cutSeq} is past the tideline)` : ""}`,
  ].join("\n");
}
