/**
 * bench/ledger/marathon: N steps of a few KB of tool output each through `oceancode run` against the fake
 * Anthropic server at 0 ms latency, with the ledger and the tideline on (defaults: 40% line on a 200k model).
 *
 *   npm run build && node dist/bench/ledger/marathon.js [--steps 1000] [--kb 8] [--no-ledger]
 *     [--percent 40] [--tokens 80000] [--block 70%|56000] [--keep-steps 3] [--no-elide]
 *
 * Prints: per-step engine overhead (everything but the provider call and the tool run: context build,
 * request build, hooks, ledger, tideline) over the first and last 100 steps, RSS at start/end and peak,
 * total prompt tokens, peak window, the share of prompt tokens that were a prefix of the previous request
 * (cache reuse), cost units (input x 1 + cache write x 1.25 + cache read x 0.1, Anthropic's relative prices),
 * cuts, summary calls, and bytes on disk. A probe extension (user tier, plain ESM in the
 * temp HOME) takes the timings inside the run's own process, the way any third-party extension could.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { du, runMarathon } from "./marathon-fixture.js";

const fmt = (n: number) => n.toLocaleString("en-US");
/** Claude Code's cost units on this marathon at 200 steps x 8 KB, as issue 13 records them (measured side by side). */
const CLAUDE_CODE_UNITS_200x8 = 2_620_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      steps: { type: "string", default: "1000" },
      kb: { type: "string", default: "8" },
      "no-ledger": { type: "boolean" },
      // the tideline's settings for this run (ledger.tideline in a project config); unset = the defaults
      percent: { type: "string" },
      tokens: { type: "string" },
      block: { type: "string" },
      "keep-steps": { type: "string" },
      "no-elide": { type: "boolean" },
      // memory checkpoints (steps); default 1, 200, 1,000 and 10,000 when the run is that long, and the last
      checkpoints: { type: "string" },
    },
    strict: true,
  });
  const steps = Number(values.steps);
  // memory checkpoints: steps 1, 200, 1,000 and 10,000 when the run is that long, and the last step
  const checkpoints = [...new Set([...(values.checkpoints ?? "1,200,1000,10000").split(",").map(Number), steps])].filter((c) => c >= 1 && c <= steps).sort((a, b) => a - b);
  const kb = Number(values.kb);
  // --no-ledger: the same run with the ledger (and so the tideline) off, for comparison
  const tideline: Record<string, unknown> = {};
  if (values.percent !== undefined) tideline.percent = Number(values.percent);
  if (values.tokens !== undefined) tideline.tokens = Number(values.tokens);
  if (values.block !== undefined) tideline.block = /%$/.test(values.block) ? values.block : Number(values.block);
  if (values["no-elide"]) tideline.elide = false;
  else if (values["keep-steps"] !== undefined) tideline.elide = { keep_steps: Number(values["keep-steps"]) };
  const settings = Object.keys(tideline).length ? JSON.stringify(tideline) : "defaults";
  const projectConfig = values["no-ledger"] || Object.keys(tideline).length ? { ledger: values["no-ledger"] ? { enabled: false } : { tideline } } : undefined;
  const r = await runMarathon({ steps, kb, checkpoints, ...(projectConfig ? { projectConfig } : {}) });
  const { code, stderrTail, maxWindow, summaryCalls, tmp } = r;
  const n = r.requests;
  const wall = r.wallSeconds;
  const written = /ledger: ([\d.]+) MB written/.exec(stderrTail)?.[1];
  const probe = r.probe;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)] ?? 0;
  const first = probe.slice(1, 101).map((r) => r.overhead);
  const last = probe.slice(-100).map((r) => r.overhead);
  const rss = probe.map((r) => r.rss);
  const t = r.totals;
  const prompt = t.input_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens;
  const ledger = path.join(r.data, "session-ledger");
  const db = r.data;
  const MB = 1024 * 1024;
  // an agent that compacts near the limit of a 200k model keeps ~100k+ in every request on average
  const compactingEstimate = steps * 100_000;
  // Anthropic's relative prices: uncached input 1, cache write 1.25, cache read 0.1
  const units = t.input_tokens + t.cache_creation_input_tokens * 1.25 + t.cache_read_input_tokens * 0.1;
  const recorded = steps === 200 && kb === 8 ? ` — Claude Code on 200 x 8 KB (issue 13's recorded figure): 2.62 M, ratio ${(units / CLAUDE_CODE_UNITS_200x8).toFixed(3)}` : "";
  const lines = [
    `marathon${values["no-ledger"] ? " (ledger off)" : ""}: ${fmt(steps)} steps x ${kb} KB tool output, anthropic/claude-sonnet-4-5 (200k) on the fake server at 0 ms; exit ${code}; ${wall.toFixed(1)} s wall`,
    `tideline settings: ${values["no-ledger"] ? "off" : settings}`,
    `engine overhead per step: first 100 mean ${mean(first).toFixed(2)} ms (p95 ${p(first, 0.95).toFixed(2)}), last 100 mean ${mean(last).toFixed(2)} ms (p95 ${p(last, 0.95).toFixed(2)})`,
    `rss: start ${(rss[0]! / MB).toFixed(0)} MB, end ${(rss.at(-1)! / MB).toFixed(0)} MB, peak ${(Math.max(...rss) / MB).toFixed(0)} MB; heap used start ${(probe[0]!.heap / MB).toFixed(0)} MB, end ${(probe.at(-1)!.heap / MB).toFixed(0)} MB`,
    `prompt tokens: total ${fmt(prompt)} (a compacting agent near the limit: ~${fmt(compactingEstimate)}); output ${fmt(t.output_tokens)}`,
    `peak window: ~${fmt(maxWindow)} tokens (request bytes / 4); peak gauge ${fmt(Math.max(...probe.map((r) => r.gauge)))}`,
    `cache reuse: ${(t.cache_read_input_tokens / Math.max(1, prompt)).toFixed(3)} of prompt tokens were a prefix of the previous request`,
    `cost units: ${(units / 1e6).toFixed(3)} M (input ${fmt(t.input_tokens)} x 1 + cache write ${fmt(t.cache_creation_input_tokens)} x 1.25 + cache read ${fmt(t.cache_read_input_tokens)} x 0.1)${recorded}`,
    `cuts: ${r.cuts}; requests ${fmt(n)}; summary calls ${summaryCalls}`,
    `ledger writes: ${written ?? "?"} MB written in all (atomic whole-file replaces, coalesced when steps outrun the writer; appends for the transcript rows)`,
    `on disk: ledger ${(du(ledger) / MB).toFixed(1)} MB, database ${(du(path.join(db, "oceancode.db")) + du(path.join(db, "oceancode.db-wal"))) / MB > 0 ? ((du(path.join(db, "oceancode.db")) + du(path.join(db, "oceancode.db-wal"))) / MB).toFixed(1) : "0.0"} MB`,
  ];
  // memory at each checkpoint: process.memoryUsage() and resident MB per kind of mapping (/proc/self/smaps)
  const marks = probe.filter((r) => r.mem);
  if (marks.length) {
    const mb = (n: number | undefined) => ((n ?? 0) / MB).toFixed(1).padStart(7);
    const kinds = [...new Set(marks.flatMap((r) => Object.keys(r.smaps ?? {})))];
    const top = kinds.filter((k) => marks.some((r) => (r.smaps![k] ?? 0) >= 1024)).sort((a, b) => (marks.at(-1)!.smaps![b] ?? 0) - (marks.at(-1)!.smaps![a] ?? 0));
    const other = (r: (typeof marks)[number]) => Object.entries(r.smaps ?? {}).filter(([k]) => !top.includes(k)).reduce((n, [, v]) => n + v, 0);
    lines.push(`memory (MB) at step:${marks.map((r) => String(r.step).padStart(7)).join("")}`);
    for (const k of ["rss", "heapTotal", "heapUsed", "external", "arrayBuffers"] as const) lines.push(`  ${k.padEnd(18)}${marks.map((r) => mb(r.mem![k])).join("")}`);
    for (const k of Object.keys(marks[0]!.spaces ?? {})) if (marks.some((r) => (r.spaces![k] ?? 0) >= MB)) lines.push(`    ${k.padEnd(16)}${marks.map((r) => mb(r.spaces![k])).join("")}`);
    if (top.length) lines.push(`  resident by mapping (/proc/self/smaps):`);
    for (const k of top) lines.push(`    ${k.slice(0, 40).padEnd(40)}${marks.map((r) => mb((r.smaps![k] ?? 0) * 1024)).join("")}`);
    if (top.length) lines.push(`    ${"(other, under 1 MB each)".padEnd(40)}${marks.map((r) => mb(other(r) * 1024)).join("")}`);
    const at = (s: number) => marks.find((r) => r.step === s)?.mem?.rss;
    const a = at(1000), b = at(10000);
    if (a && b) lines.push(`rss 1,000 -> 10,000: ${(a / MB).toFixed(0)} -> ${(b / MB).toFixed(0)} MB (${(((b - a) / a) * 100).toFixed(1)}%)`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  if (process.env.OC_BENCH_HEAPSNAPSHOT) {
    for (const f of fs.readdirSync(tmp).filter((f) => f.endsWith(".heapsnapshot"))) fs.renameSync(path.join(tmp, f), path.join(process.cwd(), f.replace(/^probe\.jsonl\./, "marathon-")));
    process.stdout.write(`heap snapshots: ${process.cwd()}/marathon-<step>.heapsnapshot\n`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench/ledger/marathon: ${String(e)}\n`);
  process.exitCode = 1;
});
