/**
 * The tool-output compressor (the guide's `compress`, off unless turned on): taps engine.toolResult so a
 * command's output reaches the model compressed (compress.ts, result.ts) with the verbatim text on disk,
 * and engine.gauge so the gauge adds back the removed bytes ÷ 4 of every compressed result in the window
 * as sent — the tideline then cuts where it would without compress. See docs/compress.md.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { Row } from "../engine/api.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../tools/api.js";
import { BYTES_PER_TOKEN, type CompressService, type CompressTotals } from "./api.js";
import { compressText } from "./compress.js";
import { compressResult } from "./result.js";
import { readSettings } from "./settings.js";

/**
 * Removed bytes of the compressed results in a window as sent. A result the tideline elided (replaced in
 * the window by its head and tail) is a copy, not the stored object: it is left out, since without
 * compress it would have been elided too and the gauge already counts what was sent of it.
 */
export function removedInWindow(window: readonly Row[], stored: readonly Row[]): number {
  let bytes = 0;
  for (const row of window) {
    if (row.role !== "tool") continue;
    const orig = storedRow(stored, row.seq);
    const same = row === orig;
    row.results.forEach((r, i) => {
      if (r.compressed && (same || (orig?.role === "tool" && orig.results[i] === r))) bytes += r.compressed.removedBytes;
    });
  }
  return bytes;
}

function countCompressed(rows: readonly Row[]): number {
  let n = 0;
  for (const row of rows) if (row.role === "tool" && row.results.some((r) => r.compressed)) n++;
  return n;
}

/** The stored row with this seq (rows are in seq order), by binary search. */
function storedRow(rows: readonly Row[], seq: number): Row | undefined {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = rows[mid]!.seq;
    if (s === seq) return rows[mid];
    if (s < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

export default {
  activate(ctx: ExtensionContext) {
    const settings = readSettings(ctx.config.get("compress"));
    const engine = ctx.services.get("engine");
    const totals = new Map<string, CompressTotals>();
    const service: CompressService = {
      settings: () => ({ ...settings }),
      compress: (text, where) => compressText(text, settings, where),
      totals: (id) => ({ ...(totals.get(id) ?? { results: 0, bytesBefore: 0, bytesAfter: 0, savedTokens: 0 }) }),
    };
    ctx.provide("compress", service);

    // tapped even with compress off: rows compressed earlier (a resumed session) still count as they were.
    // The window as sent (after the tideline's cut and elision) is read at its last stage; the gauge adds
    // its removed bytes and those of this step's new results.
    // A session with no compressed row (compress off, the common case) costs one lookup per step: its rows
    // are scanned once (a resumed session's), then counted as steps add them.
    const sent = new Map<string, number>();
    const compressedRows = new Map<string, number>();
    engine.hooks.contextBuild.tap({ name: ctx.id, stage: "notes" }, (win, step) => {
      const id = step.session.info.id;
      let n = compressedRows.get(id);
      if (n === undefined) compressedRows.set(id, (n = countCompressed(step.session.rows)));
      sent.set(id, n > 0 ? removedInWindow(win.rows, step.session.rows) : 0);
      return win;
    });
    engine.hooks.gauge.tap({ name: ctx.id, stage: "STAGE_DEFAULT" }, (tokens, g) => {
      const id = g.ctx.session.info.id;
      const fresh = g.tools ? removedInWindow([g.tools], g.ctx.session.rows) : 0;
      if (fresh > 0) compressedRows.set(id, (compressedRows.get(id) ?? 0) + 1);
      return tokens + Math.floor(((sent.get(id) ?? 0) + fresh) / BYTES_PER_TOKEN);
    });
    engine.hooks.sessionEnd.tap({ name: ctx.id }, ({ session }) => {
      totals.delete(session.info.id);
      sent.delete(session.info.id);
      compressedRows.delete(session.info.id);
    });
    if (!settings.enabled) return;

    const chars = ctx.config.get("tools.max_output_chars");
    const maxChars = typeof chars === "number" && chars > 0 ? chars : DEFAULT_MAX_OUTPUT_CHARS;
    // before the hooks' PostToolUse (stage enrich) and the observers: they see what the model will read
    engine.hooks.toolResult.tap({ name: ctx.id, stage: "default" }, async (result, call) => {
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
