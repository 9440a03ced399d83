/**
 * Output size limit: a result over `tools.max_output_chars` reaches the model as head + tail around a
 * "[truncated N bytes; full output kept at <path>]" marker; the full text is kept on disk under
 * <dataDir>/tool-output/<session id>/<call id>.txt so nothing is lost (the ledger points at it).
 */
import fs from "node:fs";
import path from "node:path";
import type { ToolOutput } from "../engine/api.js";

export interface Truncated {
  fullBytes: number;
  fullPath: string;
}

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

export function marker(omittedBytes: number, fullPath: string): string {
  return `\n\n[truncated ${omittedBytes} bytes; full output kept at ${fullPath}]\n\n`;
}

function joinAround(head: string, tail: string, fullBytes: number, fullPath: string): string {
  const omitted = Math.max(0, fullBytes - Buffer.byteLength(head) - Buffer.byteLength(tail));
  return `${head}${marker(omitted, fullPath)}${tail}`;
}

/** Truncate an output for the model, keeping the full text in a file. Leaves small outputs alone. */
export function limitOutput(out: ToolOutput, opts: { maxChars: number; dataDir: string; sessionId: string; callId: string }): ToolOutput {
  if (out.content.length <= opts.maxChars || out.metadata?.truncated) return out;
  const fullPath = fullOutputPath(opts.dataDir, opts.sessionId, opts.callId);
  fs.mkdirSync(path.dirname(fullPath), { recursive: true });
  fs.writeFileSync(fullPath, out.content);
  const { head, tail } = split(opts.maxChars);
  const fullBytes = Buffer.byteLength(out.content);
  const content = joinAround(out.content.slice(0, head), out.content.slice(out.content.length - tail), fullBytes, fullPath);
  return { ...out, content, metadata: { ...(out.metadata ?? {}), truncated: { fullBytes, fullPath } satisfies Truncated } };
}

/**
 * Collects a child's output without holding more than `memLimit` bytes: past it, everything streams to the
 * full-output file and only a head and a rolling tail stay in memory.
 */
export class OutputCollector {
  private parts: string[] = [];
  private bytes = 0;
  private fd: number | undefined;
  private head = "";
  private tail = "";
  private readonly sizes: { head: number; tail: number };

  constructor(
    private readonly fullPath: string,
    maxChars: number,
    private readonly memLimit = Math.max(1 << 20, maxChars * 4),
  ) {
    this.sizes = split(maxChars);
  }

  push(s: string): void {
    if (s.length === 0) return;
    this.bytes += Buffer.byteLength(s);
    if (this.fd === undefined) {
      this.parts.push(s);
      if (this.bytes > this.memLimit) this.spill();
      return;
    }
    fs.writeSync(this.fd, s);
    this.tail = (this.tail + s).slice(-this.sizes.tail);
  }

  private spill(): void {
    fs.mkdirSync(path.dirname(this.fullPath), { recursive: true });
    this.fd = fs.openSync(this.fullPath, "w");
    const all = this.parts.join("");
    this.parts = [];
    fs.writeSync(this.fd, all);
    this.head = all.slice(0, this.sizes.head);
    this.tail = all.slice(-this.sizes.tail);
  }

  /** The collected text (when it stayed in memory) or head + marker + tail with the truncation record. */
  finish(): { content: string; truncated?: Truncated } {
    if (this.fd === undefined) return { content: this.parts.join("") };
    fs.closeSync(this.fd);
    this.fd = undefined;
    const truncated = { fullBytes: this.bytes, fullPath: this.fullPath };
    return { content: joinAround(this.head, this.tail, this.bytes, this.fullPath), truncated };
  }
}
