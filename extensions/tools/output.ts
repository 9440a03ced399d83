/**
 * Output size limit: a result over `tools.max_output_chars` reaches the model as head + tail around a
 * "[truncated N bytes; full output kept at <path>]" marker; the full text is kept on disk under
 * <dataDir>/tool-output/<session id>/<call id>.txt (the ledger points at it; it is stored once). A
 * command's output past `tools.max_output_bytes` (4 MiB) keeps only its first and last bytes there.
 */
import fs from "node:fs";
import path from "node:path";
import type { ToolOutput } from "../engine/api.js";

export interface Truncated {
  fullBytes: number;
  fullPath: string;
  /** the spill file was capped (tools.max_output_bytes): it keeps this many bytes, head and tail */
  keptBytes?: number;
}

/** `tools.max_output_bytes`: what one command's spill file keeps at most (head and tail) */
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

const safe = (s: string): string => s.replace(/[^A-Za-z0-9_.-]/g, "_") || "_";

export function outputDir(dataDir: string, sessionId: string): string {
  return path.join(dataDir, "tool-output", safe(sessionId));
}

export function fullOutputPath(dataDir: string, sessionId: string, name: string): string {
  return path.join(outputDir(dataDir, sessionId), `${safe(name)}.txt`);
}

/** Head and tail sizes for a limit: the tail is kept because errors and exit codes come last. */
function split(maxChars: number): { head: number; tail: number } {
  const head = Math.floor(maxChars / 2);
  return { head, tail: maxChars - head };
}

export function marker(omittedBytes: number, fullPath: string, capped = false): string {
  return capped
    ? `\n\n[truncated ${omittedBytes} bytes; the output's first and last bytes are kept at ${fullPath} (it was too long to keep whole)]\n\n`
    : `\n\n[truncated ${omittedBytes} bytes; full output kept at ${fullPath}]\n\n`;
}

function joinAround(head: string, tail: string, fullBytes: number, fullPath: string, capped = false): string {
  const omitted = Math.max(0, fullBytes - Buffer.byteLength(head) - Buffer.byteLength(tail));
  return `${head}${marker(omitted, fullPath, capped)}${tail}`;
}

/** Truncate an output for the model, keeping the full text in a file. Leaves small outputs alone. */
export function limitOutput(out: ToolOutput, opts: { maxChars: number; maxBytes?: number; dataDir: string; sessionId: string; callId: string }): ToolOutput {
  if (out.content.length <= opts.maxChars || out.metadata?.truncated) return out;
  const fullPath = fullOutputPath(opts.dataDir, opts.sessionId, opts.callId);
  fs.mkdirSync(path.dirname(fullPath), { recursive: true });
  // the same cap as a command's spill file (OutputCollector): first and last bytes past tools.max_output_bytes
  const c = new OutputCollector(fullPath, opts.maxChars, opts.maxBytes ?? DEFAULT_MAX_OUTPUT_BYTES, 0);
  c.push(out.content);
  const done = c.finish();
  if (done.truncated?.keptBytes !== undefined) return { ...out, content: done.content, metadata: { ...(out.metadata ?? {}), truncated: done.truncated } };
  const { head, tail } = split(opts.maxChars);
  const fullBytes = Buffer.byteLength(out.content);
  const content = joinAround(out.content.slice(0, head), out.content.slice(out.content.length - tail), fullBytes, fullPath);
  return { ...out, content, metadata: { ...(out.metadata ?? {}), truncated: { fullBytes, fullPath } satisfies Truncated } };
}

/** Back `end` off to the start of a UTF-8 character (never cut one in two). */
function charStart(b: Buffer, end: number): number {
  let i = Math.max(0, Math.min(end, b.length));
  while (i > 0 && i < b.length && (b[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** The last `max` bytes of a list of chunks, from a character boundary. */
function lastBytes(chunks: Buffer[], max: number): Buffer {
  const all = Buffer.concat(chunks);
  if (all.length <= max) return all;
  let from = all.length - max;
  while (from < all.length && (all[from]! & 0xc0) === 0x80) from++;
  return all.subarray(from);
}

/** The line a capped spill file carries where bytes were dropped. */
export function spillCutLine(dropped: number, total: number, cap: number): string {
  return `\n\n[... ${dropped} bytes cut here: the output was ${total} bytes; this file keeps its first and last bytes, at most tools.max_output_bytes = ${cap} in all]\n\n`;
}

/**
 * Collects a child's output with memory flat whatever it prints. Up to `memLimit` bytes stay in memory
 * (the common case: no file). Past it, the output streams to the spill file, which is capped at
 * `maxBytes` (`tools.max_output_bytes`): its first half as written, then a cut line, then the last half,
 * kept meanwhile in a ring of chunks. The model gets head + marker + tail (`maxChars`) and the path.
 */
export class OutputCollector {
  private parts: string[] = [];
  private bytes = 0;
  private fd: number | undefined;
  /** bytes of the head written to the spill file */
  private written = 0;
  /** the spill file's tail: the newest chunks, at most about tailCap bytes */
  private ring: Buffer[] = [];
  private ringStart = 0;
  private ringBytes = 0;
  private head = "";
  private tail = "";
  private readonly sizes: { head: number; tail: number };
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(
    private readonly fullPath: string,
    maxChars: number,
    private readonly maxBytes = DEFAULT_MAX_OUTPUT_BYTES,
    private readonly memLimit = Math.min(Math.max(1 << 20, maxChars * 4), maxBytes),
  ) {
    this.sizes = split(maxChars);
    this.headCap = Math.floor(maxBytes / 2);
    this.tailCap = maxBytes - this.headCap;
  }

  push(s: string): void {
    if (s.length === 0) return;
    this.bytes += Buffer.byteLength(s);
    if (this.fd === undefined) {
      this.parts.push(s);
      if (this.bytes > this.memLimit) this.spill();
      return;
    }
    this.toFile(Buffer.from(s));
    // the model's tail: only the last few thousand characters are ever needed
    this.tail = s.length >= this.sizes.tail ? s.slice(-this.sizes.tail) : (this.tail + s).slice(-this.sizes.tail);
  }

  private toFile(b: Buffer): void {
    if (this.written < this.headCap) {
      const room = this.headCap - this.written;
      const take = b.length <= room ? b.length : charStart(b, room);
      fs.writeSync(this.fd!, b, 0, take);
      this.written += take;
      if (take === b.length) return;
      this.written = this.headCap; // the head is closed (a character that did not fit goes to the tail)
      b = b.subarray(take);
    }
    this.ring.push(b);
    this.ringBytes += b.length;
    // drop the oldest chunks while the rest still covers the tail (an index, not shift(): chunks can be tiny)
    while (this.ringStart < this.ring.length - 1 && this.ringBytes - this.ring[this.ringStart]!.length >= this.tailCap) this.ringBytes -= this.ring[this.ringStart++]!.length;
    if (this.ringStart > 1024) this.ring = this.ring.slice(this.ringStart), (this.ringStart = 0);
  }

  private spill(): void {
    fs.mkdirSync(path.dirname(this.fullPath), { recursive: true });
    this.fd = fs.openSync(this.fullPath, "w");
    const all = this.parts.join("");
    this.parts = [];
    this.toFile(Buffer.from(all));
    this.head = all.slice(0, this.sizes.head);
    this.tail = all.slice(-this.sizes.tail);
  }

  /** The collected text (when it stayed in memory) or head + marker + tail with the truncation record. */
  finish(): { content: string; truncated?: Truncated } {
    if (this.fd === undefined) return { content: this.parts.join("") };
    const tail = lastBytes(this.ring.slice(this.ringStart), this.tailCap);
    const dropped = this.bytes - this.written - tail.length;
    if (dropped > 0) fs.writeSync(this.fd, spillCutLine(dropped, this.bytes, this.maxBytes));
    if (tail.length) fs.writeSync(this.fd, tail);
    fs.closeSync(this.fd);
    this.fd = undefined;
    this.ring = [];
    const truncated: Truncated = { fullBytes: this.bytes, fullPath: this.fullPath, ...(dropped > 0 ? { keptBytes: this.written + tail.length } : {}) };
    return { content: joinAround(this.head, this.tail, this.bytes, this.fullPath, dropped > 0), truncated };
  }
}
