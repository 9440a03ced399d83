/**
 * The soak verdict over a turns file (bench/soak/soak writes it): SOAK_OK, or SOAK_RED with the first reason.
 * Flat means the late steps cost what the early ones did: the median step time and engine overhead of the
 * last tenth within `timeRatio` of the first tenth's (after a warm-up) or within `timeSlackMs` of it, and
 * RSS at the end within `rssRatio` (or `rssSlackMb`) of RSS after the warm-up.
 */

export interface SoakStep {
  type: "step";
  step: number;
  ms: number;
  overhead: number;
  rss: number;
  heap: number;
  gauge: number;
}
export interface SoakRun {
  type: "run";
  steps: number;
  exit: number | null;
  requests: number;
  summary_calls: number;
  refusals: number;
  assistant_rows: number;
  tool_rows: number;
  session: string;
}
export type SoakLine = SoakStep | SoakRun;

export interface SoakBounds {
  warmup: number;
  timeRatio: number;
  timeSlackMs: number;
  rssRatio: number;
  rssSlackMb: number;
}
export const DEFAULT_BOUNDS: SoakBounds = { warmup: 20, timeRatio: 1.5, timeSlackMs: 2, rssRatio: 1.3, rssSlackMb: 64 };

export interface SoakVerdict {
  ok: boolean;
  line: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
};
const MB = 1024 * 1024;

export function judgeSoak(lines: SoakLine[], b: SoakBounds = DEFAULT_BOUNDS): SoakVerdict {
  const run = lines.find((l): l is SoakRun => l.type === "run");
  const steps = lines.filter((l): l is SoakStep => l.type === "step").sort((x, y) => x.step - y.step);
  const red = (reason: string, detail: string) => ({ ok: false, line: `SOAK_RED reason=${reason} ${detail}`.trim() });
  if (!run) return red("no_run_record", "(the turns file has no run line: the soak did not finish)");
  if (run.exit !== 0) return red("exit", `exit=${run.exit}`);
  if (steps.length < run.steps) return red("steps_missing", `recorded=${steps.length} expected=${run.steps}`);
  if (run.refusals > 0) return red("refusals", `refusals=${run.refusals}`);
  if (run.summary_calls > 0) return red("summary_call", `summary_calls=${run.summary_calls}`);
  // every step's assistant row and tool row, plus the closing answer, are in the database
  if (run.tool_rows < run.steps || run.assistant_rows < run.steps + 1) return red("rows_missing", `assistant_rows=${run.assistant_rows} tool_rows=${run.tool_rows} steps=${run.steps}`);
  const body = steps.slice(Math.min(b.warmup, Math.floor(steps.length / 4)));
  const tenth = Math.max(1, Math.floor(body.length / 10));
  const early = body.slice(0, tenth);
  const late = body.slice(-tenth);
  const flat = (name: string, pick: (s: SoakStep) => number): SoakVerdict | undefined => {
    const a = median(early.map(pick));
    const z = median(late.map(pick));
    if (z > a * b.timeRatio && z - a > b.timeSlackMs) return red(`${name}_grew`, `${name}_ms=${a.toFixed(2)}->${z.toFixed(2)}`);
    return undefined;
  };
  const grew = flat("step", (s) => s.ms) ?? flat("overhead", (s) => s.overhead);
  if (grew) return grew;
  const rss0 = median(early.map((s) => s.rss));
  const rss1 = median(late.map((s) => s.rss));
  if (rss1 > rss0 * b.rssRatio && rss1 - rss0 > b.rssSlackMb * MB) return red("rss_grew", `rss_mb=${(rss0 / MB).toFixed(0)}->${(rss1 / MB).toFixed(0)}`);
  const a = median(early.map((s) => s.ms));
  const z = median(late.map((s) => s.ms));
  return {
    ok: true,
    line: `SOAK_OK steps=${run.steps} step_ms=${a.toFixed(2)}->${z.toFixed(2)} overhead_ms=${median(early.map((s) => s.overhead)).toFixed(2)}->${median(late.map((s) => s.overhead)).toFixed(2)} rss_mb=${(rss0 / MB).toFixed(0)}->${(rss1 / MB).toFixed(0)} rows=${run.assistant_rows + run.tool_rows}`,
  };
}

export function parseTurns(text: string): SoakLine[] {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as SoakLine);
}
