/**
 * PostToolUse's `tool_response` in Claude Code's shapes, built from what the tool returned (its output
 * and metadata, captured around executeTool) rather than from the model-facing text:
 *   Bash   {stdout, stderr, interrupted, isImage}              (no "exit code: N" line)
 *   Read   {type: "text", file: {filePath, content, numLines, startLine, totalLines}}
 *   Write  {type: "create" | "update", filePath, content, structuredPatch, originalFile}
 *   Edit   {filePath, oldString, newString, originalFile, structuredPatch, userModified, replaceAll}
 * Other tools get {content}. structuredPatch is one hunk around the changed region (3 lines of context).
 */
import fs from "node:fs";
import type { ToolOutput, ToolResult } from "../engine/api.js";

/** What the executeTool wrap saw of one call. */
export interface Captured {
  ms: number;
  output?: ToolOutput;
  /** the file before Edit / Write ran (null: it did not exist) */
  original?: string | null;
}

/** Files bigger than this are not read to fill originalFile / structuredPatch. */
export const MAX_ORIGINAL_BYTES = 4 * 1024 * 1024;

/** The target file's text before an Edit / Write, for originalFile. undefined when unknown (too big, unreadable). */
export function readOriginal(file: unknown): string | null | undefined {
  if (typeof file !== "string") return undefined;
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_ORIGINAL_BYTES) return undefined;
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** One hunk from the first to the last changed line, with up to 3 lines of context; [] when equal. */
export function singleHunk(before: string, after: string, context = 3): Hunk[] {
  if (before === after) return [];
  // a final newline ends the last line; it is not an empty line of its own
  const split = (t: string): string[] => (t === "" ? [] : (t.endsWith("\n") ? t.slice(0, -1) : t).split("\n"));
  const a = split(before);
  const b = split(after);
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const start = Math.max(0, p - context);
  const aEnd = a.length - s;
  const bEnd = b.length - s;
  const after3 = Math.min(s, context);
  const lines = [
    ...a.slice(start, p).map((l) => ` ${l}`),
    ...a.slice(p, aEnd).map((l) => `-${l}`),
    ...b.slice(p, bEnd).map((l) => `+${l}`),
    ...a.slice(aEnd, aEnd + after3).map((l) => ` ${l}`),
  ];
  return [{ oldStart: start + 1, oldLines: p - start + (aEnd - p) + after3, newStart: start + 1, newLines: p - start + (bEnd - p) + after3, lines }];
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
/** Claude Code reports Bash streams without their trailing newlines. */
const trimNl = (s: string): string => s.replace(/\n+$/, "");

function bashResponse(r: ToolResult, meta: Record<string, unknown>): Record<string, unknown> {
  const interrupted = meta.aborted === true || meta.timed_out === true;
  if (typeof meta.job_id === "string") return { stdout: "", stderr: "", interrupted: false, isImage: false, backgroundTaskId: meta.job_id };
  const stdout = str(meta.stdout);
  const stderr = str(meta.stderr);
  if (stdout !== undefined || stderr !== undefined) return { stdout: trimNl(stdout ?? ""), stderr: trimNl(stderr ?? ""), interrupted, isImage: false };
  // a bash tool that does not keep the streams apart: its text without the exit-code line
  return { stdout: trimNl(r.content.replace(/\n?exit code: [^\n]*$/, "")), stderr: "", interrupted, isImage: false };
}

/** Read's text is numbered lines ("     7\tcode"); undo the numbering to report the file's content. */
function readResponse(r: ToolResult, input: Record<string, unknown>, meta: Record<string, unknown>): Record<string, unknown> {
  const numbered: Array<{ n: number; text: string }> = [];
  for (const line of r.content.split("\n")) {
    const m = /^ *(\d+)\t(.*)$/.exec(line);
    if (m) numbered.push({ n: Number(m[1]), text: m[2]! });
  }
  const filePath = str(meta.path) ?? str(input.file_path);
  const total = typeof meta.lines === "number" ? meta.lines : numbered.length;
  const offset = typeof input.offset === "number" ? input.offset : 1;
  return {
    type: "text",
    file: { filePath, content: numbered.map((l) => l.text).join("\n"), numLines: numbered.length, startLine: numbered[0]?.n ?? offset, totalLines: total },
  };
}

export function toolResponse(toolName: string, r: ToolResult, input: Record<string, unknown>, cap: Captured | undefined): Record<string, unknown> {
  const meta = cap?.output?.metadata ?? {};
  const original = cap?.original;
  switch (toolName) {
    case "Bash":
      return bashResponse(r, meta);
    case "Read":
      return readResponse(r, input, meta);
    case "Write": {
      const content = str(input.content) ?? "";
      const created = meta.created === true || original === null;
      return {
        type: created ? "create" : "update",
        filePath: str(meta.path) ?? str(input.file_path),
        content,
        structuredPatch: typeof original === "string" && !created ? singleHunk(original, content) : [],
        originalFile: created ? null : (original ?? null),
        success: true,
      };
    }
    case "Edit": {
      const oldString = str(input.old_string) ?? "";
      const newString = str(input.new_string) ?? "";
      const replaceAll = input.replace_all === true;
      const after = typeof original === "string" ? (replaceAll ? original.split(oldString).join(newString) : original.replace(oldString, () => newString)) : undefined;
      return {
        filePath: str(meta.path) ?? str(input.file_path),
        oldString,
        newString,
        originalFile: original ?? null,
        structuredPatch: typeof original === "string" && after !== undefined ? singleHunk(original, after) : [],
        userModified: false,
        replaceAll,
        success: true,
      };
    }
    default:
      return { content: r.content };
  }
}
