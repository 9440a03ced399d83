/** Pure text formatting for the pager's status bar and transcript (no React, no I/O). */

/** 950 -> "950", 38_000 -> "38k", 1_234 -> "1.2k", 1_000_000 -> "1.0M" */
export function fmtTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "0";
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function fmtUsd(n: number): string {
  return `$${(Number.isFinite(n) ? n : 0).toFixed(2)}`;
}

/** "$0.12" or "$0.12 / $5.00" when a spend cap is set. */
export function fmtSpend(spent: number, cap?: number, subscription = false): string {
  // on the Claude Pro/Max subscription route the figure is a list-price estimate, not a bill
  if (subscription) return `≈${fmtUsd(spent)} list · subscription`;
  return cap !== undefined && cap > 0 ? `${fmtUsd(spent)} / ${fmtUsd(cap)}` : fmtUsd(spent);
}

/** What the status bar needs; the tideline service's meter (or SessionTotals when it is absent) fills it. */
export interface MeterView {
  model: string;
  /** tokens in the current window */
  contextUsed: number;
  /** the model's own context window */
  contextWindow: number;
  tideline:
    | { on: false }
    | { on: true; percent?: number; lineTokens: number; toGo: number; text?: string };
  inputTokens: number;
  outputTokens: number;
  spentUsd: number;
  capUsd?: number;
  /** the claude CLI route: spend is shown as an estimate (≈$x list · subscription) */
  subscription?: boolean;
}

/** "tideline @40% (80k): 38k to go", "tideline @300k: 138k to go", or "tideline off". */
export function tidelineText(t: MeterView["tideline"]): string {
  if (!t.on) return "tideline off";
  if (t.text) return t.text;
  const togo = `${fmtTokens(Math.max(0, t.toGo))} to go`;
  return t.percent !== undefined ? `tideline @${t.percent}% (${fmtTokens(t.lineTokens)}): ${togo}` : `tideline @${fmtTokens(t.lineTokens)}: ${togo}`;
}

/** Plain words first: "context 12% · 200k window" (the tideline's detail is /context's). */
export function contextText(m: MeterView): string {
  const pct = m.contextWindow > 0 ? Math.min(999, Math.round((m.contextUsed / m.contextWindow) * 100)) : 0;
  return `context ${pct}% · ${fmtTokens(m.contextWindow)} window`;
}

/** The status bar's parts, in display order: model, context, tokens in/out, spend. */
export function statusParts(m: MeterView): string[] {
  return [m.model, contextText(m), `↑${fmtTokens(m.inputTokens)} ↓${fmtTokens(m.outputTokens)}`, fmtSpend(m.spentUsd, m.capUsd, m.subscription)];
}

/** A text gauge of `width` cells for used/window with a ┃ at the tideline. */
export function gaugeBar(m: MeterView, width: number): string {
  if (width < 4 || m.contextWindow <= 0) return "";
  const fill = Math.min(width, Math.round((m.contextUsed / m.contextWindow) * width));
  const cells: string[] = Array.from({ length: width }, (_, i) => (i < fill ? "█" : "░"));
  if (m.tideline.on) {
    const at = Math.min(width - 1, Math.max(0, Math.round((m.tideline.lineTokens / m.contextWindow) * width)));
    cells[at] = "┃";
  }
  return cells.join("");
}

/** Split text into display rows no wider than `width` (hard wrap; tabs as two spaces). */
export function wrapRows(text: string, width: number): string[] {
  const w = Math.max(8, width);
  const out: string[] = [];
  for (const line of text.replace(/\t/g, "  ").split("\n")) {
    if (line.length <= w) out.push(line);
    else for (let i = 0; i < line.length; i += w) out.push(line.slice(i, i + w));
  }
  return out;
}

/**
 * The last `rows` display rows of `text`. Looks at a bounded tail only, so the cost does not grow with
 * the text's length (a long streaming answer stays cheap per token).
 */
export function tailRows(text: string, rows: number, width: number): string[] {
  const budget = Math.max(1, rows) * (Math.max(8, width) + 1) * 2;
  const tail = text.length > budget ? text.slice(text.length - budget) : text;
  const all = wrapRows(tail, width);
  return all.slice(Math.max(0, all.length - rows));
}

/** One line summary of a tool call's input: the command for bash, the path for file tools, else JSON. */
export function toolInputSummary(name: string, input: Record<string, unknown>): string {
  for (const k of ["command", "file_path", "path", "pattern", "url", "query"]) {
    const v = input[k];
    if (typeof v === "string" && v) return v;
  }
  const json = JSON.stringify(input);
  return json === "{}" ? "" : json;
}

/** Collapse an output to its first `keep` lines; `hidden` is how many were left out. */
export function collapse(text: string, keep = 3): { shown: string[]; hidden: number } {
  const lines = text.replace(/\n+$/, "").split("\n");
  return { shown: lines.slice(0, keep), hidden: Math.max(0, lines.length - keep) };
}
