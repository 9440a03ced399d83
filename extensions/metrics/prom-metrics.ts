/**
 * The process's metrics: one prom-client Registry (never prom-client's global one) and every oceancode_*
 * family. Loaded only when metrics are on (index.ts imports this module dynamically), so a run that asks
 * for nothing never loads prom-client. Event counts are recorded as they happen (Recorder: O(1) per call);
 * the levels other extensions keep (storage's writer, serve's clients, the kernel's hook error log) are
 * read at scrape time through `Sources`, so nothing is polled between scrapes.
 */
import client from "prom-client";
import type { MetricFamily } from "./api.js";

/** What the scrape reads from other extensions; each answers undefined when its provider is not active. */
export interface Sources {
  writer(): { queued: number; lagMs: number; committedOps: number; dropped: number } | undefined;
  serve(): { sseClients: number; queuedPrompts: number; openSessions: number; fleet?: { takeovers: number } } | undefined;
  /** the kernel's hook error log: failures per hook (summed over taps and codes) */
  hookErrors(): ReadonlyMap<string, number>;
  mcp(): Readonly<{ connect: number; disconnect: number; call: number }> | undefined;
  /** sessions open in this process (the engine's sessionStart/sessionEnd) */
  openSessions(): number;
}

/** What the engine taps record (taps.ts); every call is a counter increment or one histogram observation. */
export interface Recorder {
  step(durationMs: number): void;
  turn(reason: string): void;
  toolCall(tool: string, outcome: "ok" | "error" | "denied", seconds?: number): void;
  modelCall(provider: string, outcome: string, seconds: number, ttftSeconds: number | undefined): void;
  tokens(provider: string, input: number, output: number, cacheRead: number, cacheWrite: number): void;
  cost(provider: string, usd: number): void;
  permission(decided: string, final: string, answeredBy: string | undefined): void;
}

export interface Metrics {
  record: Recorder;
  snapshot(): Promise<MetricFamily[]>;
  text(): Promise<string>;
  readonly contentType: string;
}

const TOOL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const MODEL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];
const TTFT_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];

export function createMetrics(sources: Sources): Metrics {
  const registry = new client.Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = [], collect?: (c: client.Counter<L>) => void) =>
    new client.Counter<L>({ name, help, labelNames, registers, ...(collect ? { collect(this: client.Counter<L>) { collect(this); } } : {}) });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[], collect: (g: client.Gauge<L>) => void) =>
    new client.Gauge<L>({ name, help, labelNames, registers, collect(this: client.Gauge<L>) { collect(this); } });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) => new client.Histogram<L>({ name, help, labelNames, buckets, registers });
  /** a counter whose total another extension keeps: set at each scrape (reset, then the total) */
  const mirror = (c: client.Counter<string>, labels: Record<string, string>, total: number | undefined) => {
    if (total !== undefined && total >= 0) c.inc(labels, total);
  };

  const steps = counter("oceancode_steps_total", "model steps run (one model answer and its tool calls)");
  const stepSeconds = histogram("oceancode_step_duration_seconds", "how long a step took, model call and tools", [], MODEL_BUCKETS);
  const turns = counter("oceancode_turns_total", "turns ended, by how they ended (end_turn, step_cap, error, aborted, blocked, max_tokens)", ["reason"]);
  const tools = counter("oceancode_tool_calls_total", "tool calls by tool and outcome (ok, error, denied)", ["tool", "outcome"]);
  const toolSeconds = histogram("oceancode_tool_duration_seconds", "how long an allowed tool call ran", ["tool"], TOOL_BUCKETS);
  const modelSeconds = histogram("oceancode_model_call_duration_seconds", "one provider request (each retry attempt is one), by provider and outcome (ok, retry, error, aborted)", ["provider", "outcome"], MODEL_BUCKETS);
  const ttft = histogram("oceancode_model_time_to_first_token_seconds", "from a provider request to its first text or tool call", ["provider"], TTFT_BUCKETS);
  const tokens = counter("oceancode_tokens_total", "tokens the providers reported, by provider and kind (input, output, cache_read, cache_write)", ["provider", "kind"]);
  const cost = counter("oceancode_cost_usd_total", "spend in US dollars by provider (the model's price times the usage)", ["provider"]);
  const decisions = counter("oceancode_permission_decisions_total", "tool call permission decisions before any question (allow, ask, deny)", ["decision"]);
  const answers = counter("oceancode_permission_answers_total", "asks answered, by who answered (person, automatic, host, none) and the final verdict (allow, deny)", ["answered_by", "verdict"]);
  counter("oceancode_hook_errors_total", "hook tap failures (throws and timeouts) by hook, from the kernel's hook error log", ["hook"], (c) => {
    c.reset();
    for (const [hook, n] of sources.hookErrors()) mirror(c, { hook }, n);
  });
  counter("oceancode_mcp_errors_total", "MCP failures by kind: connect (a handshake failed), disconnect (a connection was lost), call (a tool call failed: protocol error, timeout)", ["kind"], (c) => {
    c.reset();
    const m = sources.mcp();
    mirror(c, { kind: "connect" }, m?.connect ?? 0);
    mirror(c, { kind: "disconnect" }, m?.disconnect ?? 0);
    mirror(c, { kind: "call" }, m?.call ?? 0);
  });
  gauge("oceancode_open_sessions", "sessions open in this process (sub-agents included)", [], (g) => g.set(sources.openSessions()));
  gauge("oceancode_sse_clients", "connected SSE clients of the server (every event stream)", [], (g) => g.set(sources.serve()?.sseClients ?? 0));
  gauge("oceancode_serve_queued_prompts", "prompts the server accepted whose turn has not started", [], (g) => g.set(sources.serve()?.queuedPrompts ?? 0));
  const writer = () => {
    try {
      return sources.writer();
    } catch {
      return undefined; // a store closing at exit
    }
  };
  gauge("oceancode_writer_queue_depth", "storage writes queued, not yet committed", [], (g) => g.set(writer()?.queued ?? 0));
  gauge("oceancode_writer_lag_ms", "age of the oldest queued storage write in milliseconds: what a crash now would lose", [], (g) => g.set(writer()?.lagMs ?? 0));
  counter("oceancode_writer_committed_total", "storage writes committed", [], (c) => {
    c.reset();
    mirror(c, {}, writer()?.committedOps);
  });
  counter("oceancode_writer_dropped_total", "storage writes given up (database unusable, or a write for a session never stored)", [], (c) => {
    c.reset();
    mirror(c, {}, writer()?.dropped);
  });
  gauge("oceancode_fleet_leases", "session claims (leases) this fleet instance holds; 0 outside a fleet", [], (g) => {
    const s = sources.serve();
    g.set(s?.fleet ? s.openSessions : 0);
  });
  counter("oceancode_fleet_takeovers_total", "sessions whose turns this fleet instance took over from a gone instance", [], (c) => {
    c.reset();
    mirror(c, {}, sources.serve()?.fleet?.takeovers);
  });

  const record: Recorder = {
    step(ms) {
      steps.inc();
      stepSeconds.observe(ms / 1000);
    },
    turn(reason) {
      turns.inc({ reason });
    },
    toolCall(tool, outcome, seconds) {
      tools.inc({ tool, outcome });
      if (seconds !== undefined) toolSeconds.observe({ tool }, seconds);
    },
    modelCall(provider, outcome, seconds, ttftSeconds) {
      modelSeconds.observe({ provider, outcome }, seconds);
      if (ttftSeconds !== undefined) ttft.observe({ provider }, ttftSeconds);
    },
    tokens(provider, input, output, cacheRead, cacheWrite) {
      // every kind, zero included: a provider's series are there from its first answer
      tokens.inc({ provider, kind: "input" }, input);
      tokens.inc({ provider, kind: "output" }, output);
      tokens.inc({ provider, kind: "cache_read" }, cacheRead);
      tokens.inc({ provider, kind: "cache_write" }, cacheWrite);
    },
    cost(provider, usd) {
      cost.inc({ provider }, usd);
    },
    permission(decided, final, answeredBy) {
      decisions.inc({ decision: decided });
      if (answeredBy) answers.inc({ answered_by: answeredBy, verdict: final });
    },
  };
  return {
    record,
    snapshot: async () => (await registry.getMetricsAsJSON()) as unknown as MetricFamily[],
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
