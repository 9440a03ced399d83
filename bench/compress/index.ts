/**
 * The tool-output compressor on a corpus of real command outputs (corpus/, collected by running the tools
 * on this machine: package installs, test runners, compilers, git, apt; `-tty` files were captured through
 * a pseudo-terminal, so they carry colours and progress frames). Per file and in total: bytes and estimated
 * tokens (bytes ÷ 4, the guide's estimate) before and after, the share saved, and what the model reads of
 * each with the tools' 30,000-character limit applied (today: head + tail; with compress: the compressed
 * whole, itself cut to the limit when longer). The compressor's own time per MB last.
 * Run: node dist/bench/compress/index.js [--corpus <dir>]
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_COMPRESS_SETTINGS } from "../../extensions/compress/api.js";
import { compressText } from "../../extensions/compress/compress.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
// compiled to dist/bench/compress/: the corpus stays in the source tree
const ROOT = HERE.includes(`${path.sep}dist${path.sep}`) ? path.resolve(HERE, "..", "..", "..") : path.resolve(HERE, "..", "..");
const { values } = parseArgs({ options: { corpus: { type: "string", default: path.join(ROOT, "bench", "compress", "corpus") } } });
const LIMIT = 30_000;
const tok = (bytes: number) => Math.round(bytes / 4);
const seen = (text: string) => Buffer.byteLength(text.length > LIMIT ? text.slice(0, LIMIT / 2) + text.slice(-LIMIT / 2) : text);

const files = fs.readdirSync(values.corpus).filter((f) => f.endsWith(".txt")).sort();
const rows: string[][] = [["file", "bytes", "tokens", "compressed", "tokens", "saved", "model reads today", "with compress"]];
let before = 0, after = 0, readToday = 0, readCompressed = 0, ms = 0;
for (const f of files) {
  const text = fs.readFileSync(path.join(values.corpus, f), "utf8");
  const t0 = performance.now();
  const r = compressText(text, { ...DEFAULT_COMPRESS_SETTINGS, enabled: true }, `tool-output/<session>/${f}`);
  ms += performance.now() - t0;
  const b = r.stats.bytesBefore, a = r.stats.bytesAfter;
  before += b;
  after += a;
  readToday += seen(text);
  readCompressed += seen(r.text);
  rows.push([f, String(b), String(tok(b)), String(a), String(tok(a)), `${Math.round((100 * (b - a)) / Math.max(1, b))}%`, String(tok(seen(text))), String(tok(seen(r.text)))]);
}
rows.push(["total", String(before), String(tok(before)), String(after), String(tok(after)), `${Math.round((100 * (before - after)) / Math.max(1, before))}%`, String(tok(readToday)), String(tok(readCompressed))]);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));
console.log(`\n${files.length} files; tokens saved ${tok(before - after)} of ${tok(before)}; the gauge adds them back (removed bytes ÷ 4)`);
// time on a bigger input: the corpus repeated to at least 8 MB
const all = files.map((f) => fs.readFileSync(path.join(values.corpus, f), "utf8")).join("\n");
const big = all.repeat(Math.max(1, Math.ceil(8e6 / Buffer.byteLength(all))));
const t1 = performance.now();
compressText(big, { ...DEFAULT_COMPRESS_SETTINGS, enabled: true }, "x");
const mb = Buffer.byteLength(big) / 1e6;
console.log(`compressor: ${(ms / (before / 1e6)).toFixed(1)} ms/MB on the corpus; ${((performance.now() - t1) / mb).toFixed(1)} ms/MB on ${mb.toFixed(1)} MB`);
