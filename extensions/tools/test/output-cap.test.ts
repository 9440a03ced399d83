/** The spill file of a long output is capped (tools.max_output_bytes): head and tail kept, memory flat. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { limitOutput, OutputCollector } from "../output.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-outcap-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("OutputCollector", () => {
  it("keeps a short output in memory, no file", () => {
    const file = path.join(dir, "short.txt");
    const c = new OutputCollector(file, 1000, 65536);
    c.push("hello\n");
    expect(c.finish()).toEqual({ content: "hello\n" });
    expect(fs.existsSync(file)).toBe(false);
  });

  it("an output under the cap is kept whole in the spill file", () => {
    const file = path.join(dir, "whole.txt");
    const c = new OutputCollector(file, 1000, 1 << 20, 4096);
    const text = "0123456789abcdef\n".repeat(1000);
    for (let i = 0; i < text.length; i += 997) c.push(text.slice(i, i + 997));
    const r = c.finish();
    expect(fs.readFileSync(file, "utf8")).toBe(text);
    expect(r.truncated).toEqual({ fullBytes: text.length, fullPath: file });
    expect(r.content).toContain(`full output kept at ${file}`);
  });

  it("past the cap the file holds its first and last halves around a cut line, whatever the chunk sizes", () => {
    const file = path.join(dir, "capped.txt");
    const cap = 65536;
    const c = new OutputCollector(file, 1000, cap, 4096);
    let total = 0;
    const piece = (i: number) => `line ${i} é€\n`; // multi-byte characters across chunk edges
    let first = "";
    for (let i = 0; i < 200_000; i++) {
      const s = i % 7 === 0 ? piece(i).repeat(50) : piece(i);
      if (i === 0) first = s;
      total += Buffer.byteLength(s);
      c.push(s);
    }
    c.push("THE LAST LINE\n");
    total += 14;
    const r = c.finish();
    const kept = fs.readFileSync(file);
    expect(kept.length).toBeLessThan(cap + 400);
    const text = kept.toString("utf8");
    expect(text).not.toContain("\ufffd"); // no character cut in two
    expect(text.startsWith(first)).toBe(true);
    expect(text.endsWith("THE LAST LINE\n")).toBe(true);
    expect(text).toMatch(/\[\.\.\. \d+ bytes cut here: the output was \d+ bytes/);
    expect(r.truncated?.fullBytes).toBe(total);
    expect(r.truncated?.keptBytes).toBeLessThanOrEqual(cap);
    expect(r.content).toContain("first and last bytes are kept at");
    expect(r.content.length).toBeLessThan(1000 + 300);
    expect(r.content.endsWith("THE LAST LINE\n")).toBe(true);
  });

  it("limitOutput caps the file of any tool's long result the same way", () => {
    const out = limitOutput({ content: "x".repeat(300_000) + "END" }, { maxChars: 1000, maxBytes: 65536, dataDir: dir, sessionId: "s", callId: "c" });
    const meta = out.metadata?.truncated as { fullPath: string; fullBytes: number; keptBytes?: number };
    expect(meta.fullBytes).toBe(300_003);
    expect(fs.statSync(meta.fullPath).size).toBeLessThan(65536 + 400);
    expect(fs.readFileSync(meta.fullPath, "utf8").endsWith("END")).toBe(true);
  });
});
