/**
 * The compressor on real outputs (bench/compress/corpus, collected by running the tools here) and on
 * small made-up ones: escape codes and carriage-return frames gone, repeats folded with their count,
 * similar runs sampled with the left-out line range of the verbatim text, error lines never left out.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_COMPRESS_SETTINGS } from "../api.js";
import { compressText, shapeOf, stripFrames } from "../compress.js";
import { readSettings } from "../settings.js";

const here = path.dirname(fileURLToPath(import.meta.url));
// from the source tree or from dist/extensions/compress/test
const root = [path.resolve(here, "..", "..", ".."), path.resolve(here, "..", "..", "..", "..")].find((r) => fs.existsSync(path.join(r, "bench", "compress", "corpus")))!;
const corpus = (f: string) => fs.readFileSync(path.join(root, "bench", "compress", "corpus", f), "utf8");
const ON = { ...DEFAULT_COMPRESS_SETTINGS, enabled: true };
const run = (text: string) => compressText(text, ON, "V.txt");

describe("escape codes and frames", () => {
  it("a coloured, framed capture keeps only what the terminal showed", () => {
    for (const f of ["vitest-tty.txt", "cargo-build-errors-tty.txt", "make-gcc-errors-tty.txt", "npm-install-tty.txt", "pytest-tty.txt", "apt-get-update-tty.txt"]) {
      const r = run(corpus(f));
      expect(r.text, f).not.toMatch(/[\x1b\x9b\r]/);
      expect(r.stats.ansiBytes + r.stats.frameBytes, f).toBeGreaterThan(0);
    }
    // npm's spinner writes ESC[1G ESC[0K before each frame: the frames go, the error stays
    const npm = run(corpus("npm-install-tty.txt")).text;
    expect(npm).toContain("npm error code ENOTCACHED");
    expect(npm).not.toMatch(/[⠙⠹⠸⠼⠴⠦]/);
    // apt's progress frames are overwritten by the Get: lines
    const apt = run(corpus("apt-get-update-tty.txt")).text;
    expect(apt).toContain("Get:1 http://deb.debian.org/debian bookworm InRelease");
    expect(apt).not.toContain("0% [Working]Get");
  });

  it("git clone's progress keeps each phase's last frame", () => {
    const raw = corpus("git-clone-progress.txt");
    const r = run(raw);
    expect(r.text).toMatch(/Receiving objects: 100% .*done\./);
    expect(r.text).not.toMatch(/Receiving objects:\s+\d?\d% /);
    expect(r.stats.removedBytes / r.stats.bytesBefore).toBeGreaterThan(0.9);
  });

  it("a shorter frame over a longer one leaves the rest of the longer, an erased one does not", () => {
    expect(stripFrames("abcdef\rxy").text).toBe("xycdef");
    expect(stripFrames("abcdef\r\x1b[2Kxy").text).toBe("xy");
    expect(stripFrames("line one\r\nline two\r\n").text).toBe("line one\nline two\n");
    expect(stripFrames("\x1b]0;title\x07\x1b[1;31mred\x1b[0m ab\bc").text).toBe("red ac");
  });
});

describe("repeats and similar runs", () => {
  it("identical lines fold into one and a count; blank runs become one blank line", () => {
    const text = ["start", ...Array(50).fill("Waiting for the lock on the cache..."), "", "", "", "end"].join("\n");
    const r = run(text);
    expect(r.text).toBe(["start", "Waiting for the lock on the cache...", "[compress: the line above repeats 49 more times]", "", "end"].join("\n"));
    expect(r.stats.foldedLines).toBe(51);
  });

  it("a long run of similar lines keeps head, tail and its error lines, and names the left-out range", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `   Compiling crate${i} v0.${i}.${i * 3}`);
    lines[50] = "error[E0308]: mismatched types in crate50";
    const text = ["Updating index", ...lines, "Finished"].join("\n");
    const r = run(text);
    const out = r.text.split("\n");
    expect(out.slice(1, 9)).toEqual(lines.slice(0, 8));
    expect(out).toContain("error[E0308]: mismatched types in crate50");
    expect(out.slice(-9)).toEqual([...lines.slice(92), "Finished"]);
    // the error line splits the run in two; verbatim line numbers: line 1 is "Updating index", crate8 is line 10
    expect(r.text).toContain("[compress: 34 similar lines left out here (lines 10-43 of V.txt)]");
    expect(r.text).toContain("[compress: 33 similar lines left out here (lines 61-93 of V.txt)]");
    const verbatim = text.split("\n");
    expect([verbatim[9], verbatim[42], verbatim[60], verbatim[92]]).toEqual([lines[8], lines[41], lines[59], lines[91]]);
    expect(r.stats.sampledLines).toBe(67);
  });

  it("a run under sample_run_lines is kept whole; settings read from true, false and an object", () => {
    const text = Array.from({ length: 30 }, (_, i) => `add pkg-${i} 1.0.${i}`).join("\n");
    expect(run(text).text).toBe(text);
    expect(readSettings(true).enabled).toBe(true);
    expect(readSettings(undefined)).toEqual(DEFAULT_COMPRESS_SETTINGS);
    expect(readSettings({ keep_head: 2, sample_run_lines: 10 })).toMatchObject({ enabled: true, keepHead: 2, sampleRunLines: 10, keepTail: 8 });
    expect(readSettings({ enabled: false }).enabled).toBe(false);
  });

  it("shapes: numbers and hashes masked, a path keeps its folder", () => {
    expect(shapeOf("3e09c18 compress: the guide")).toBe(shapeOf("ed5a027 one way to start"));
    expect(shapeOf("  src/a.ts(1,2): x")).toBe(shapeOf("  src/b.ts(3,4): y"));
    expect(shapeOf("src/a.ts")).not.toBe(shapeOf("test/a.ts"));
    expect(shapeOf("Get:1 http://x")).toBe(shapeOf("Get:22 http://y"));
  });
});

describe("the corpus", () => {
  it("every error and failure line of every file survives", () => {
    const files = fs.readdirSync(path.join(root, "bench", "compress", "corpus")).filter((f) => f.endsWith(".txt"));
    expect(files.length).toBeGreaterThanOrEqual(15);
    let before = 0;
    let after = 0;
    for (const f of files) {
      const raw = corpus(f);
      const r = run(raw);
      before += r.stats.bytesBefore;
      after += r.stats.bytesAfter;
      expect(r.stats.bytesAfter, f).toBeLessThanOrEqual(r.stats.bytesBefore);
      const shown = new Set(stripFrames(raw).text.split("\n").map((l) => l.trimEnd()));
      const kept = new Set(r.text.split("\n"));
      for (const l of shown) if (/\berror\b.*:|\bFAIL|ERR!|npm error/.test(l) && !/^\w{7} /.test(l)) expect(kept.has(l), `${f}: ${l}`).toBe(true);
    }
    // the bench prints the figures; here only that compressing pays on real outputs
    expect(after / before).toBeLessThan(0.7);
  });

  it("npm's dry run of this project's lock file: 554 `add` lines become 16 and a count", () => {
    const r = run(corpus("npm-install-dry-run.txt"));
    expect(r.text).toMatch(/\[compress: \d+ similar lines left out here \(lines \d+-\d+ of V\.txt\)\]/);
    expect(r.text).toContain("added 554 packages");
    expect(r.text.split("\n").filter((l) => l.startsWith("add ")).length).toBe(16);
  });
});

describe("the gauge's share", () => {
  it("counts the compressed results of the window as sent, not a copy the tideline elided", async () => {
    const { removedInWindow } = await import("../index.js");
    const result = (id: string, removed?: number) => ({ callId: id, name: "bash", content: "x", isError: false, ...(removed ? { compressed: { removedBytes: removed } } : {}) });
    const stored = [
      { role: "user" as const, text: "go", seq: 1, turn: 1, step: 0, at: 0 },
      { role: "tool" as const, results: [result("a", 4000), result("b", 800)], seq: 3, turn: 1, step: 1, at: 0 },
      { role: "tool" as const, results: [result("c"), result("d", 40)], seq: 5, turn: 1, step: 2, at: 0 },
    ];
    expect(removedInWindow(stored, stored)).toBe(4840);
    // the tideline's elided copy of row 3 keeps result b as it was and replaces a
    const elided = { ...stored[1]!, results: [{ ...stored[1]!.results[0]!, content: "[tideline: elided]" }, stored[1]!.results[1]!] };
    expect(removedInWindow([stored[0]!, elided, stored[2]!], stored)).toBe(840);
    // a cut: only the rows after it were sent
    expect(removedInWindow([stored[2]!], stored)).toBe(40);
  });
});
