/** Read Prometheus text with a real parser (parse-prometheus-text-format) and flatten it into comparable samples. */
import parsePrometheusTextFormat from "parse-prometheus-text-format";

export interface PromMetric {
  value?: string;
  labels?: Record<string, string>;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}
export interface PromFamily {
  name: string;
  help: string;
  type: string;
  metrics: PromMetric[];
}

export function parseProm(text: string): PromFamily[] {
  return (parsePrometheusTextFormat as unknown as (t: string) => PromFamily[])(text);
}

const key = (name: string, labels: Record<string, string> = {}) =>
  `${name}{${Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(",")}}`;

/**
 * A labelled histogram's `_count` series, by labels. The parser keeps prom2json's old histogram shape, which
 * folds every label set of a family into one (labels dropped): so the `_count` sample lines of the families
 * it typed HISTOGRAM are read here, one line each.
 */
function histogramCounts(text: string, families: PromFamily[]): Map<string, number> {
  const histograms = new Set(families.filter((f) => f.type === "HISTOGRAM").map((f) => f.name));
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)_count(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || !histograms.has(m[1]!)) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.set(key(m[1]!, labels), Number(m[3]));
  }
  return out;
}

/** Every counter sample and every histogram's _count, by `name{labels}` (histograms as `name_count{labels}`): what may only rise. */
export function rising(text: string, families: PromFamily[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of families) {
    if (f.type !== "COUNTER") continue;
    for (const m of f.metrics) out.set(key(f.name, m.labels), Number(m.value));
  }
  for (const [k, v] of histogramCounts(text, families)) out.set(k.replace("{", "_count{"), v);
  return out;
}

/** One counter or gauge sample's value, or a histogram's count; undefined when the series is absent. */
export function sample(text: string, families: PromFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const f = families.find((x) => x.name === name);
  if (f?.type === "HISTOGRAM") return histogramCounts(text, families).get(key(name, labels));
  const m = f?.metrics.find((x) => key(name, x.labels) === key(name, labels));
  return m ? Number(m.value) : undefined;
}

/** What a well-formed exposition must have: HELP and TYPE for every family, oceancode_ names, counters ending in _total. */
export function formProblems(text: string, families: PromFamily[]): string[] {
  const bad: string[] = [];
  for (const f of families) {
    if (!f.help) bad.push(`${f.name}: no HELP`);
    if (!["COUNTER", "GAUGE", "HISTOGRAM"].includes(f.type)) bad.push(`${f.name}: TYPE ${f.type}`);
    if (!text.includes(`# HELP ${f.name} `) || !text.includes(`# TYPE ${f.name} `)) bad.push(`${f.name}: HELP/TYPE lines missing`);
    if (!f.name.startsWith("oceancode_")) bad.push(`${f.name}: not oceancode_*`);
    if (f.type === "COUNTER" && !f.name.endsWith("_total")) bad.push(`${f.name}: a counter not ending in _total`);
  }
  return bad;
}

/** The families every oceancode process exposes (docs/operations-metrics.md). */
export const FAMILIES = [
  "oceancode_steps_total",
  "oceancode_step_duration_seconds",
  "oceancode_turns_total",
  "oceancode_tool_calls_total",
  "oceancode_tool_duration_seconds",
  "oceancode_model_call_duration_seconds",
  "oceancode_model_time_to_first_token_seconds",
  "oceancode_tokens_total",
  "oceancode_cost_usd_total",
  "oceancode_permission_decisions_total",
  "oceancode_permission_answers_total",
  "oceancode_hook_errors_total",
  "oceancode_mcp_errors_total",
  "oceancode_open_sessions",
  "oceancode_sse_clients",
  "oceancode_serve_queued_prompts",
  "oceancode_writer_queue_depth",
  "oceancode_writer_lag_ms",
  "oceancode_writer_committed_total",
  "oceancode_writer_dropped_total",
  "oceancode_fleet_leases",
  "oceancode_fleet_takeovers_total",
];
