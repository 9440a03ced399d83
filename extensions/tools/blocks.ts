/**
 * Blocks of a long tool output, for a truncation that keeps the block a step needs instead of the head
 * (published through api.ts, so any extension tapping engine.toolResult can choose the block: the jev
 * `output` point does). Today's truncation (output.ts: head + marker + tail) stays the default; these
 * helpers only split the full text kept on disk and compose the alternative view in the same marker style.
 */

/** One block: its label (B1, B2, ...), its 1-based line range and its text. */
export interface OutputBlock {
  label: string;
  firstLine: number;
  lastLine: number;
  text: string;
}

/** At most this many blocks (a choice question has at most 255 options). */
export const MAX_OUTPUT_BLOCKS = 255;

/**
 * Split a text into blocks: blank-line paragraphs, a paragraph longer than `maxLines` (default 40) cut into
 * groups of that many lines; past `maxBlocks` (255) neighbours are merged into equal line groups. Every
 * line is in exactly one block, in order.
 */
export function splitOutputBlocks(text: string, opts: { maxLines?: number; maxBlocks?: number } = {}): OutputBlock[] {
  const maxLines = Math.max(1, opts.maxLines ?? 40);
  const maxBlocks = Math.max(1, Math.min(MAX_OUTPUT_BLOCKS, opts.maxBlocks ?? MAX_OUTPUT_BLOCKS));
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  // ranges [start, end) of lines
  let ranges: Array<[number, number]> = [];
  let start = -1;
  const close = (end: number) => {
    if (start < 0) return;
    for (let s = start; s < end; s += maxLines) ranges.push([s, Math.min(end, s + maxLines)]);
    start = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() === "") close(i);
    else if (start < 0) start = i;
  }
  close(lines.length);
  if (ranges.length > maxBlocks) {
    const per = Math.ceil(lines.length / maxBlocks);
    ranges = [];
    for (let s = 0; s < lines.length; s += per) ranges.push([s, Math.min(lines.length, s + per)]);
  }
  return ranges.map(([s, e], i) => ({ label: `B${i + 1}`, firstLine: s + 1, lastLine: e, text: lines.slice(s, e).join("\n") }));
}

/**
 * The truncated view that keeps one block: the output's first line, a marker naming the block and the
 * full file, the block (cut to fit `maxChars`), and the last line of what the model would have seen
 * (exit codes and errors come last). The full output stays on disk, as with the head + tail view.
 */
export function keepOutputBlock(opts: { full: string; block: OutputBlock; blocks: number; fullPath: string; maxChars: number; lastLine?: string; by?: string }): string {
  const nl = opts.full.indexOf("\n");
  const head = nl < 0 ? opts.full : opts.full.slice(0, nl);
  const last = opts.lastLine ?? "";
  const room = Math.max(200, opts.maxChars - head.length - last.length - 300);
  const body = opts.block.text.length > room ? `${opts.block.text.slice(0, room)}\n[... block cut to fit]` : opts.block.text;
  const omitted = Math.max(0, Buffer.byteLength(opts.full) - Buffer.byteLength(head) - Buffer.byteLength(body));
  const by = opts.by ? ` (chosen by ${opts.by})` : "";
  const marker = `[truncated ${omitted} bytes; kept block ${opts.block.label} of ${opts.blocks}, lines ${opts.block.firstLine}-${opts.block.lastLine}${by}; full output kept at ${opts.fullPath}]`;
  const showHead = opts.block.firstLine > 1;
  return [showHead ? head : undefined, marker, body, last ? `[...]\n${last}` : undefined].filter((x) => x !== undefined).join("\n\n");
}
