/**
 * Deterministic elision at a cut. When the tideline cuts, an old tool output that stays inside the
 * retained window (older than the newest `keepSteps` steps, longer than `minChars`) is shown to the model
 * as its head, its tail and a pointer to the verbatim copy in the ledger's transcript. Only the window
 * changes: the row on disk, in the database and in session.rows is never touched. Nothing is summarized.
 *
 * The elided form is a pure function of the row, the settings and the ledger directory, and the set of
 * elided rows only moves at a cut (`elideSeq`), so the same rows render byte-identically on every step
 * until the next cut and the provider's prompt cache keeps hitting.
 */
import type { Row, ToolRow, ToolResult } from "../engine/api.js";

export interface ElideSettings {
  /** false: never elide */
  enabled: boolean;
  /** the newest steps whose outputs always stay whole (at least 1) */
  keepSteps: number;
  /** outputs at most this many characters stay whole */
  minChars: number;
  /** characters of the output's start kept (whole lines when they fit) */
  headChars: number;
  /** characters of the output's end kept (whole lines when they fit) */
  tailChars: number;
}

export const ELIDE_DEFAULTS: ElideSettings = { enabled: true, keepSteps: 1, minChars: 2_400, headChars: 800, tailChars: 400 };

/** The config form (`ledger.tideline.elide`): `false`, or an object with snake_case keys. */
export type ElideConfig = boolean | { enabled?: boolean; keep_steps?: number; min_chars?: number; head_chars?: number; tail_chars?: number };

const nonNeg = (v: unknown, d: number): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : d);

export function elideSettings(cfg: ElideConfig | undefined): ElideSettings {
  if (cfg === false) return { ...ELIDE_DEFAULTS, enabled: false };
  if (cfg === undefined || cfg === true || typeof cfg !== "object") return { ...ELIDE_DEFAULTS };
  const s: ElideSettings = {
    enabled: cfg.enabled !== false,
    keepSteps: Math.max(1, nonNeg(cfg.keep_steps, ELIDE_DEFAULTS.keepSteps)),
    headChars: nonNeg(cfg.head_chars, ELIDE_DEFAULTS.headChars),
    tailChars: nonNeg(cfg.tail_chars, ELIDE_DEFAULTS.tailChars),
    minChars: nonNeg(cfg.min_chars, ELIDE_DEFAULTS.minChars),
  };
  // an output is only elided when that removes something
  s.minChars = Math.max(s.minChars, s.headChars + s.tailChars);
  return s;
}

/** The transcript file holding a turn's rows (the ledger's naming: transcript/turn-0001.md). */
export function transcriptFile(ledgerDir: string, turn: number): string {
  return `${ledgerDir}/transcript/turn-${String(turn).padStart(4, "0")}.md`;
}

/** The start of `text`, at most `n` characters, ending at a line end when one falls in the budget. */
export function headOf(text: string, n: number): string {
  if (n <= 0) return "";
  if (text.length <= n) return text;
  const cut = text.lastIndexOf("\n", n - 1);
  return cut >= 0 ? text.slice(0, cut + 1) : text.slice(0, n);
}

/** The end of `text`, at most `n` characters, starting at a line start when one falls in the budget. */
export function tailOf(text: string, n: number): string {
  if (n <= 0) return "";
  if (text.length <= n) return text;
  const from = text.length - n;
  const nl = text.indexOf("\n", from);
  return nl >= 0 && nl < text.length - 1 ? text.slice(nl + 1) : text.slice(from);
}

const lineCount = (s: string): number => (s === "" ? 0 : s.split("\n").length - (s.endsWith("\n") ? 1 : 0));

/**
 * A tool output's elided form: head, a marker with the pointer, tail. Undefined when it stays whole.
 * `file` is the transcript file holding the verbatim output under the heading `### tool · seq <seq>`.
 */
export function elideOutput(content: string, s: ElideSettings, where: { file: string; seq: number; callId: string }): string | undefined {
  if (!s.enabled || content.length <= s.minChars) return undefined;
  const head = headOf(content, s.headChars);
  const tail = tailOf(content, s.tailChars);
  if (head.length + tail.length >= content.length) return undefined;
  const omitted = content.length - head.length - tail.length;
  const lines = lineCount(content);
  const gone = lines - lineCount(head) - lineCount(tail);
  const marker =
    `[tideline: ${omitted} of ${content.length} characters (${gone} of ${lines} lines) of this output are elided from the window, not lost. ` +
    `The whole output is verbatim in ${where.file} under the heading "### tool · seq ${where.seq}" (result id ${where.callId}); ` +
    `read it with: sed -n '/^### tool · seq ${where.seq} /,/^### /p' ${shellQuoted(where.file)}]`;
  return `${head}${head.endsWith("\n") || head === "" ? "" : "\n"}${marker}\n${tail}`;
}

/** A path as one shell word (single quotes; an embedded quote closed, escaped, reopened): a HOME with a space still reads. */
function shellQuoted(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}

/** A tool row's elided form (a new object; the row itself is never changed), or the row when nothing is elided. */
export function elideToolRow(row: ToolRow, s: ElideSettings, ledgerDir: string): { row: ToolRow; savedChars: number } {
  let saved = 0;
  let changed = false;
  const results = row.results.map((r): ToolResult => {
    const e = elideOutput(r.content, s, { file: transcriptFile(ledgerDir, row.turn), seq: row.seq, callId: r.callId });
    if (e === undefined) return r;
    changed = true;
    saved += r.content.length - e.length;
    return { ...r, content: e };
  });
  return changed ? { row: { ...row, results }, savedChars: saved } : { row, savedChars: 0 };
}

/**
 * Where elision ends for a cut: the seq before the newest `keepSteps` steps (an assistant row opens a
 * step), so those steps' outputs stay whole. 0 when the rows hold no more than `keepSteps` steps.
 * Scans back from the end only as far as the kept steps.
 */
export function elideBoundary(rows: ReadonlyArray<Row>, keepSteps: number): number {
  let seen = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.role === "assistant" && ++seen >= Math.max(1, keepSteps)) return r.seq - 1;
  }
  return 0;
}

/**
 * The window's rows with every tool output at or before `elideSeq` elided. `memo` keeps each elided row
 * by seq, so a row is elided once and the same object is sent on every step until the next cut.
 * Rows after `elideSeq` are returned as they are.
 */
export function elideRows(rows: Row[], elideSeq: number, s: ElideSettings, ledgerDir: string, memo: Map<number, ToolRow>): Row[] {
  if (!s.enabled || elideSeq <= 0 || rows.length === 0 || rows[0]!.seq > elideSeq) return rows;
  const out = rows.slice();
  for (let i = 0; i < out.length; i++) {
    const r = out[i]!;
    if (r.seq > elideSeq) break;
    if (r.role !== "tool") continue;
    let e = memo.get(r.seq);
    if (!e) {
      e = elideToolRow(r, s, ledgerDir).row;
      memo.set(r.seq, e);
    }
    out[i] = e;
  }
  return out;
}
