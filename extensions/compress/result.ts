/**
 * One tool result through the compressor: the verbatim text is on disk (the tools extension's spill file
 * when it truncated the result, else written here beside it), the model reads the compressed text with a
 * first line saying what was done and where the verbatim copy is.
 */
import fs from "node:fs";
import path from "node:path";
import type { ToolResult } from "../engine/api.js";
import type { CompressSettings, CompressStats } from "./api.js";
import { compressText } from "./compress.js";

export interface ResultOptions {
  settings: CompressSettings;
  /** tools.max_output_chars: a compressed text longer than this keeps its head and tail */
  maxChars: number;
  dataDir: string;
  sessionId: string;
}

/** A spill file larger than this is not read again (the head and tail the model got are compressed instead). */
const MAX_REREAD_BYTES = 16 * 1024 * 1024;
/** Not worth a marker and a file: less saved than this. */
const MIN_SAVED_BYTES = 256;
/** How much of a spill file's start and end must be found in the result to re-read it. */
const ANCHOR_CHARS = 200;

const safe = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, "_") || "_";

/** The same layout as the tools extension's spill files: <data dir>/tool-output/<session>/<call>.txt */
export function verbatimPath(dataDir: string, sessionId: string, callId: string): string {
  return path.join(dataDir, "tool-output", safe(sessionId), `${safe(callId)}.txt`);
}

export interface Compressed {
  result: ToolResult;
  stats: CompressStats;
}

/** Compress one result, or undefined when it is left as it is (small, or too little to gain). */
export async function compressResult(r: ToolResult, o: ResultOptions): Promise<Compressed | undefined> {
  const before = Buffer.byteLength(r.content);
  if (before < o.settings.minBytes) return undefined;
  const spilled = r.truncated?.fullPath;
  const whole = spilled ? await rereadSpill(r.content, spilled) : undefined;
  const where = spilled ?? verbatimPath(o.dataDir, o.sessionId, r.callId);
  // the first line names the file; the markers in the text say "the verbatim output" (a path per marker costs tokens)
  const { text, stats } = compressText(whole ? whole.output : r.content, o.settings, "the verbatim output");
  const body = fit(text, o.maxChars);
  const verbatimBytes = whole ? Buffer.byteLength(whole.output) : before;
  const content = `${header(stats, verbatimBytes, where)}\n${whole ? whole.prefix : ""}${body}${whole ? whole.suffix : ""}`;
  const after = Buffer.byteLength(content);
  if (before - after < MIN_SAVED_BYTES) return undefined;
  if (!spilled) {
    fs.mkdirSync(path.dirname(where), { recursive: true });
    await fs.promises.writeFile(where, r.content);
  }
  const result: ToolResult = { ...r, content, compressed: { removedBytes: before - after }, truncated: r.truncated ?? { fullBytes: before, fullPath: where } };
  return { result, stats: { ...stats, bytesBefore: before, bytesAfter: after, removedBytes: before - after } };
}

/**
 * A truncated result: its spill file holds the whole output, so all of it is compressed rather than only
 * the head and tail the model got. What the tool wrote around the output (a job's status line, bash's
 * exit code) is found by the file's first and last characters and kept; when they are not found the
 * result is compressed as it is.
 */
async function rereadSpill(content: string, file: string): Promise<{ output: string; prefix: string; suffix: string } | undefined> {
  let output: string;
  try {
    if ((await fs.promises.stat(file)).size > MAX_REREAD_BYTES) return undefined;
    output = await fs.promises.readFile(file, "utf8");
  } catch {
    return undefined;
  }
  const head = output.slice(0, ANCHOR_CHARS);
  const tail = output.slice(-ANCHOR_CHARS);
  const at = content.indexOf(head);
  const end = content.lastIndexOf(tail);
  if (!head || at < 0 || end < 0) return undefined;
  return { output, prefix: content.slice(0, at), suffix: content.slice(end + tail.length) };
}

/** A compressed text still over the tools' limit keeps its head and tail, like an uncompressed one. */
function fit(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars / 2);
  const tailFrom = text.length - (maxChars - head);
  const cut = Buffer.byteLength(text.slice(head, tailFrom));
  return `${text.slice(0, head)}\n\n[compress: ${cut} more bytes of the compressed output left out here; see the verbatim output]\n\n${text.slice(tailFrom)}`;
}

function header(s: CompressStats, verbatimBytes: number, where: string): string {
  const did: string[] = [];
  if (s.ansiBytes + s.frameBytes > 0) did.push("escape codes and progress frames stripped");
  if (s.foldedLines > 0) did.push(`${s.foldedLines} repeated line${s.foldedLines === 1 ? "" : "s"} folded`);
  if (s.sampledLines > 0) did.push(`${s.sampledLines} similar line${s.sampledLines === 1 ? "" : "s"} left out`);
  return `[compress: ${did.length ? did.join(", ") : "compressed"}; the verbatim output (${verbatimBytes} bytes) is at ${where}]`;
}
