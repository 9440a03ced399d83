/**
 * The tool-output compressor (the guide's `compress`, off unless turned on): taps engine.toolResult so a
 * command's output reaches the model compressed (compress.ts, result.ts) with the verbatim text on disk,
 * and engine.gauge so the gauge adds back the removed bytes ÷ 4 of every compressed result still in the
 * window — the tideline then cuts where it would without compress. See docs/compress.md.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService, Session } from "../engine/api.js";
import type { TidelineService } from "../tideline/api.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../tools/api.js";
import { BYTES_PER_TOKEN, type CompressService, type CompressTotals } from "./api.js";
import { compressText } from "./compress.js";
import { compressResult } from "./result.js";
import { readSettings } from "./settings.js";

/** Removed bytes of the compressed results after `cutSeq` (the rows still in the window). */
export function removedInWindow(session: Session, cutSeq: number): number {
  let bytes = 0;
  for (let i = session.rows.length - 1; i >= 0; i--) {
    const row = session.rows[i]!;
    if (row.seq <= cutSeq) break;
    if (row.role === "tool") for (const r of row.results) bytes += r.compressed?.removedBytes ?? 0;
  }
  return bytes;
}

export default {
  activate(ctx: ExtensionContext) {
    const settings = readSettings(ctx.config.get("compress"));
    const engine = ctx.services.get<EngineService>("engine");
    const tideline = () => ctx.services.tryGet<TidelineService>("tideline");
    const totals = new Map<string, CompressTotals>();
    const service: CompressService = {
      settings: () => ({ ...settings }),
      compress: (text, where) => compressText(text, settings, where),
      totals: (id) => ({ ...(totals.get(id) ?? { results: 0, bytesBefore: 0, bytesAfter: 0, savedTokens: 0 }) }),
    };
    ctx.provide("compress", service);

    // tapped even with compress off: rows compressed earlier (a resumed session) still count as they were
    engine.hooks.gauge.tap({ name: ctx.id, stage: "STAGE_DEFAULT" }, (tokens, g) => {
      const removed = removedInWindow(g.ctx.session, tideline()?.cutSeq(g.ctx.session.info.id) ?? 0);
      return tokens + Math.floor(removed / BYTES_PER_TOKEN);
    });
    engine.hooks.sessionEnd.tap({ name: ctx.id }, ({ session }) => void totals.delete(session.info.id));
    if (!settings.enabled) return;

    const chars = ctx.config.get("tools.max_output_chars");
    const maxChars = typeof chars === "number" && chars > 0 ? chars : DEFAULT_MAX_OUTPUT_CHARS;
    // before the hooks' PostToolUse (STAGE_ENRICH) and the observers: they see what the model will read
    engine.hooks.toolResult.tap({ name: ctx.id, stage: "STAGE_DEFAULT" }, async (result, call) => {
      if (result.compressed || !settings.tools.includes(result.name)) return result;
      const sessionId = call.session.info.id;
      let done;
      try {
        done = await compressResult(result, { settings, maxChars, dataDir: ctx.paths.dataDir, sessionId });
      } catch (e) {
        // a full disk or an unreadable spill file: the model gets the output as it was
        ctx.log.warn(`compress: left the output of ${call.call.id} as it was (${e instanceof Error ? e.message : String(e)})`);
        return result;
      }
      if (!done) return result;
      const t = totals.get(sessionId) ?? { results: 0, bytesBefore: 0, bytesAfter: 0, savedTokens: 0 };
      totals.set(sessionId, {
        results: t.results + 1,
        bytesBefore: t.bytesBefore + done.stats.bytesBefore,
        bytesAfter: t.bytesAfter + done.stats.bytesAfter,
        savedTokens: t.savedTokens + Math.floor(done.stats.removedBytes / BYTES_PER_TOKEN),
      });
      ctx.log.debug(`compress: ${call.call.name} ${done.stats.bytesBefore} -> ${done.stats.bytesAfter} bytes`, { callId: call.call.id });
      return done.result;
    });
  },
};
