/**
 * bench/soak/soak-metrics: judge a soak's turns file (bench/soak/soak writes it).
 *
 *   node dist/bench/soak/soak-metrics.js <turns.jsonl> [--warmup 20] [--time-ratio 1.5] [--rss-ratio 1.3]
 *
 * Prints SOAK_OK (exit 0) or SOAK_RED reason=<why> (exit 1): per-step time, engine overhead and RSS flat
 * within bounds, no refusals, no summary call, every row stored (bench/soak/soak-judge.ts has the rules).
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_BOUNDS, judgeSoak, parseTurns } from "./soak-judge.js";

const { values, positionals } = parseArgs({
  options: { warmup: { type: "string" }, "time-ratio": { type: "string" }, "rss-ratio": { type: "string" } },
  allowPositionals: true,
});
const file = positionals[0] ?? process.env.TURNS_OUT;
if (!file) {
  process.stderr.write("usage: soak-metrics <turns.jsonl>\n");
  process.exit(2);
}
let text: string;
try {
  text = fs.readFileSync(file, "utf8");
} catch (e) {
  process.stdout.write(`SOAK_RED reason=no_turns_file ${file}: ${(e as Error).message}\n`);
  process.exit(1);
}
const bounds = {
  ...DEFAULT_BOUNDS,
  ...(values.warmup ? { warmup: Number(values.warmup) } : {}),
  ...(values["time-ratio"] ? { timeRatio: Number(values["time-ratio"]) } : {}),
  ...(values["rss-ratio"] ? { rssRatio: Number(values["rss-ratio"]) } : {}),
};
const v = judgeSoak(parseTurns(text), bounds);
process.stdout.write(`${v.line}\n`);
process.exit(v.ok ? 0 : 1);
