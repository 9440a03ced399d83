/**
 * bench/pager/pager-answer: the render cost of a streamed answer. A 5,000-line markdown answer (paragraphs,
 * lists, a table and a code block every few dozen lines) arrives in small chunks; after each chunk the
 * live area asks for its last rows, as a frame does. Prints the per-chunk cost (p50/p99), the mean per
 * chunk near line 100, 2,500 and 5,000 (flat = bounded by the chunk, not the answer), the total render
 * CPU, the final full render for the transcript, and what re-rendering the whole answer per chunk would
 * cost at the end (the work the streaming renderer avoids).
 *
 *   node dist/bench/pager/pager-answer.js [--lines 5000] [--chunk 16] [--width 120] [--rows 30]
 */
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { MarkdownStream } from "../../hosts/pager/render/stream.js";
import { renderMarkdown } from "../../hosts/pager/render/markdown.js";
import { loadHighlighter } from "../../hosts/pager/render/highlight.js";
import type { Paint } from "../../hosts/pager/render/style.js";

const { values } = parseArgs({ options: { lines: { type: "string", default: "5000" }, chunk: { type: "string", default: "16" }, width: { type: "string", default: "120" }, rows: { type: "string", default: "30" } } });
const LINES = Number(values.lines);
const CHUNK = Number(values.chunk);
const WIDTH = Number(values.width);
const ROWS = Number(values.rows);
const paint: Paint = { color: true, links: false };

/** A long answer: sections of prose, a list, a code block, now and then a table. */
function answer(lines: number): string {
  const out: string[] = [];
  let s = 0;
  while (out.length < lines) {
    s++;
    out.push(`## Section ${s}`, "", `This is **section ${s}**: it explains \`thing${s}\` with *some* emphasis and a [link](https://example.com/${s}).`, "");
    out.push(`- first point about ${s}`, `- second point, a little longer so that it wraps at a narrow width`, "");
    out.push("```ts", `export function f${s}(x: number): number {`, `  // section ${s}`, `  const y = x * ${s};`, `  return y + "${s}".length;`, "}", "```", "");
    if (s % 5 === 0) out.push("| name | value |", "|---|---:|", `| a${s} | ${s} |`, `| b${s} | ${s * 2} |`, "");
  }
  return out.slice(0, lines).join("\n") + "\n";
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

await loadHighlighter();
const text = answer(LINES);
const s = new MarkdownStream();
const costs: Array<{ line: number; ms: number }> = [];
let line = 1;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < text.length; i += CHUNK) {
  const chunk = text.slice(i, i + CHUNK);
  const a = performance.now();
  s.push(chunk);
  s.lastRows(ROWS, WIDTH, paint);
  costs.push({ line, ms: performance.now() - a });
  for (const ch of chunk) if (ch === "\n") line++;
}
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const f0 = performance.now();
const final = s.finish(WIDTH, paint);
const finishMs = performance.now() - f0;
const w0 = performance.now();
renderMarkdown(text, { width: WIDTH, paint });
const wholeMs = performance.now() - w0;

const sorted = costs.map((c) => c.ms).sort((a, b) => a - b);
const near = (at: number) => {
  const xs = costs.filter((c) => c.line >= at - 50 && c.line < at + 50).map((c) => c.ms);
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
};
const f = (n: number) => n.toFixed(3);
console.log(`pager-answer: ${LINES} lines, ${text.length} chars in ${costs.length} chunks of ${CHUNK} chars, ${WIDTH}x${ROWS}`);
console.log(`  per chunk          p50 ${f(pct(sorted, 50))} ms · p99 ${f(pct(sorted, 99))} ms · max ${f(sorted[sorted.length - 1] ?? 0)} ms`);
console.log(`  mean per chunk     near line 100: ${f(near(100))} ms · 2,500: ${f(near(Math.min(2500, LINES)))} ms · ${LINES.toLocaleString("en")}: ${f(near(LINES - 50))} ms`);
console.log(`  total render       ${wall.toFixed(0)} ms wall · ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`);
console.log(`  transcript copy    ${finishMs.toFixed(1)} ms (finish: ${final.length} rows, finished blocks reused)`);
console.log(`  whole answer once  ${wholeMs.toFixed(1)} ms (what every chunk would cost at the end if the answer were re-rendered per chunk)`);
