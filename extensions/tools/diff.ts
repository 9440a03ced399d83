/**
 * The diffs edit and write hand to the host (ToolResult.diff, and the permission question's preview):
 * unified hunks with 3 lines of context, bounded so a rewrite of a large file does not put the file in
 * every row that stores the result.
 */
import fs from "node:fs";
import { structuredPatch } from "diff";
import type { DiffHunk, FileDiff } from "../engine/api.js";
import { isInside, isSecretEnvFile } from "./paths.js";

/** at most this many diff lines are kept (the host shows fewer and says how many more) */
export const MAX_DIFF_LINES = 400;
/** a longer line is cut (a minified file) */
const MAX_LINE_CHARS = 400;
/** a larger file is not diffed (its change is told by the content line) */
const MAX_DIFF_BYTES = 2_000_000;

function cut(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

function lineCount(text: string): number {
  if (!text) return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/** The diff from `before` (undefined: the file is new) to `after`; undefined when too large to diff. */
export function fileDiff(file: string, before: string | undefined, after: string): FileDiff | undefined {
  if ((before?.length ?? 0) + after.length > MAX_DIFF_BYTES) return undefined;
  if (before === undefined) {
    const lines = after.replace(/\n$/, "").split("\n");
    const total = lineCount(after);
    const kept = lines.slice(0, Math.min(MAX_DIFF_LINES, total)).map((l) => `+${cut(l)}`);
    const hunks: DiffHunk[] = total ? [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: total, lines: kept }] : [];
    return { path: file, created: true, added: total, removed: 0, hunks, ...(kept.length < total ? { truncated: true } : {}) };
  }
  const patch = structuredPatch(file, file, before, after, "", "", { context: 3 });
  let added = 0;
  let removed = 0;
  let budget = MAX_DIFF_LINES;
  let truncated = false;
  const hunks: DiffHunk[] = [];
  for (const h of patch.hunks) {
    const lines = h.lines.filter((l) => !l.startsWith("\\")); // "\ No newline at end of file"
    for (const l of lines) {
      if (l[0] === "+") added++;
      else if (l[0] === "-") removed++;
    }
    if (budget <= 0) {
      truncated = true;
      continue;
    }
    const kept = lines.slice(0, budget).map(cut);
    if (kept.length < lines.length) truncated = true;
    budget -= kept.length;
    hunks.push({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: kept });
  }
  return { path: file, added, removed, hunks, ...(truncated ? { truncated: true } : {}) };
}

/**
 * The file as it is now, for a permission question's preview: only a regular file inside the project that
 * is not a secret env file (a question can travel further than the tool's result: to a server's client);
 * undefined for a missing file, "outside" when it may not be read for this.
 */
export function readForPreview(project: string, file: string): string | undefined | "outside" {
  // real paths too: a symlink in the project pointing out of it is outside
  if (!isInside(file, project) || isSecretEnvFile(file)) return "outside";
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return undefined;
  }
  if (!st.isFile() || st.size > MAX_DIFF_BYTES) return "outside";
  return fs.readFileSync(file, "utf8");
}

/** A diff of just the replaced text (no context, line numbers unknown): a preview of a file it may not read. */
export function snippetDiff(file: string, oldS: string, newS: string): FileDiff {
  const o = oldS.replace(/\n$/, "").split("\n");
  const n = newS.replace(/\n$/, "").split("\n");
  const lines = [...o.map((l) => `-${cut(l)}`), ...n.map((l) => `+${cut(l)}`)].slice(0, MAX_DIFF_LINES);
  return { path: file, added: n.length, removed: o.length, hunks: [{ oldStart: 0, oldLines: o.length, newStart: 0, newLines: n.length, lines }] };
}
