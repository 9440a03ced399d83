/**
 * `--input-format stream-json`: user messages as JSON lines on stdin, as `claude -p --input-format
 * stream-json` reads them: `{"type":"user","message":{"role":"user","content":"…" | [{"type":"text","text":"…"}]}}`.
 * Each is one turn; blank lines are skipped; the stream ends at EOF.
 */
import readline from "node:readline";

/** One message read, or why a line is not one (with its line number, 1-based). */
export type StreamInput = { kind: "message"; line: number; text: string } | { kind: "bad"; line: number; error: string } | { kind: "end" };

/** The prompt text of one stdin line, or why it is not a user message. */
export function parseUserLine(raw: string): { text: string } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    return { error: `not JSON (${(e as Error).message})` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { error: "not a JSON object" };
  const o = v as { type?: unknown; message?: unknown };
  if (o.type !== "user") return { error: `type must be "user" (got ${JSON.stringify(o.type ?? null)})` };
  const m = o.message as { role?: unknown; content?: unknown } | undefined;
  if (typeof m !== "object" || m === null) return { error: "no message object" };
  if (m.role !== undefined && m.role !== "user") return { error: `message.role must be "user" (got ${JSON.stringify(m.role)})` };
  if (typeof m.content === "string") return m.content.trim() ? { text: m.content } : { error: "message.content is empty" };
  if (!Array.isArray(m.content)) return { error: "message.content must be a string or an array of text blocks" };
  const parts: string[] = [];
  for (const [i, b] of m.content.entries()) {
    const block = b as { type?: unknown; text?: unknown } | null;
    if (typeof block !== "object" || block === null || block.type !== "text" || typeof block.text !== "string") {
      return { error: `message.content[${i}] is not a text block ({"type":"text","text":"…"}; other blocks are not read)` };
    }
    parts.push(block.text);
  }
  const text = parts.join("\n");
  return text.trim() ? { text } : { error: "message.content holds no text" };
}

/** Reads stdin's lines one message at a time (the next is read only when asked, after a turn ends). */
export class StreamInputReader {
  private readonly lines: AsyncIterator<string>;
  private n = 0;

  constructor(stdin: NodeJS.ReadableStream) {
    this.lines = readline.createInterface({ input: stdin, crlfDelay: Infinity })[Symbol.asyncIterator]();
  }

  async next(): Promise<StreamInput> {
    for (;;) {
      const r = await this.lines.next();
      if (r.done) return { kind: "end" };
      this.n += 1;
      if (!r.value.trim()) continue;
      const p = parseUserLine(r.value);
      return "error" in p ? { kind: "bad", line: this.n, error: p.error } : { kind: "message", line: this.n, text: p.text };
    }
  }
}
