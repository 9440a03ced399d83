/**
 * OpenTelemetry end to end: the compiled CLI's `run` on the scripted model (one tool call, one retried
 * model request) exporting to an OTLP/HTTP collector stand-in on 127.0.0.1. The span tree, shared trace
 * ids, attributes and resource; content (a canary prompt, a canary file's text) only with
 * obs.otel_log_content; nothing received and no @opentelemetry module loaded when telemetry is off; an
 * unreachable or silent collector never fails the run nor holds its exit past the shutdown bound.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { bundleMap, loadedFiles } from "../../../test/kit/bundle-map.js";
import { startServer } from "../../../test/kit/fakes/common.js";
import { attrs, startOtlpCollector, type OtlpCollector, type OtlpSpan } from "../../../test/kit/fakes/otlp-collector.js";

const RECORDER = path.join(REPO_ROOT, "test", "fixtures", "kernel", "record-imports.mjs");
const PROMPT_CANARY = "CANARY_PROMPT_7f3a91";
const FILE_CANARY = "CANARY_FILE_TEXT_c02d55";
const SCRIPT = JSON.stringify({
  steps: [
    { text: "Reading it.", tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }] },
    { error: { code: "rate_limited", status: 429, times: 1 }, text: "Done reading." },
  ],
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** files the process loaded (the import recorder's log) */
  loaded: string[];
}

let sb: Sandbox;
let n = 0;
/** `oceancode run` on the script, async (the collector lives in this process), with the import recorder. */
function run(env: NodeJS.ProcessEnv, home = sb.env, script = "s.json"): Promise<Run> {
  const log = path.join(sb.home, `imports-${n++}.log`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", RECORDER, CLI, "--dir", sb.project, "run", "--auto", "--model", `scripted/${script}`, `summarise ${PROMPT_CANARY}`], {
      cwd: sb.project,
      env: { ...home, OC_RETRY_BASE_MS: "10", OC_TEST_IMPORT_LOG: log, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const loaded = fs.existsSync(log) ? loadedFiles(fs.readFileSync(log, "utf8").trim().split("\n")) : [];
      resolve({ code, stdout, stderr, ms: performance.now() - started, loaded });
    });
  });
}

/** Did the process run any @opentelemetry code (from node_modules, or compiled into a bundle file it loaded)? */
function otelLoaded(r: Run): string[] {
  const map = bundleMap();
  const bundled = [...map.inputsOf(r.loaded.map((f) => map.relOf(f) ?? ""))];
  return [...r.loaded, ...bundled].filter((f) => f.includes("@opentelemetry"));
}

const byName = (spans: OtlpSpan[], name: string) => spans.filter((s) => s.name === name);

beforeAll(() => {
  sb = makeSandbox("oc-otel-");
  sb.write("s.json", SCRIPT);
  sb.write("notes.txt", `${FILE_CANARY}\n`);
  sb.write("agent.json", JSON.stringify({ steps: [{ text: "Delegating.", tool_calls: [{ name: "agent", input: { subagent_type: "echoer", description: "echo", prompt: "say hi" } }] }, { text: "Parent done." }] }));
  sb.write("fail.json", JSON.stringify({ steps: [{ error: { code: "auth", status: 401 }, text: "never" }] }));
  sb.write(".oceancode/agents/echoer.md", "---\ndescription: echoes\nmodel: scripted/echo\n---\nYou echo.\n");
});
afterAll(() => sb.cleanup());

describe("telemetry on", () => {
  let col: OtlpCollector;
  let r: Run;
  beforeAll(async () => {
    col = await startOtlpCollector();
    r = await run({
      OC_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: col.url,
      OTEL_EXPORTER_OTLP_HEADERS: "x-team=ocean%20ops,authorization=Bearer tok123",
      OTEL_SERVICE_NAME: "oc-ci",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test,team=core",
    });
  });
  afterAll(() => col.close());

  it("exits 0 and the spans arrive as turn > step > model_call / tool_call, one trace", () => {
    expect(r.code, r.stderr).toBe(0);
    const spans = col.spans();
    const [turn, ...moreTurns] = byName(spans, "oceancode.turn");
    expect(turn, JSON.stringify(spans.map((s) => s.name))).toBeDefined();
    expect(moreTurns).toEqual([]);
    expect(turn!.parentSpanId ?? "").toBe("");
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([turn!.traceId]));
    const steps = byName(spans, "oceancode.step");
    expect(steps.map((s) => attrs(s.attributes)["oceancode.step"])).toEqual(expect.arrayContaining([1, 2]));
    expect(steps.every((s) => s.parentSpanId === turn!.spanId)).toBe(true);
    const stepOf = (s: OtlpSpan) => steps.find((p) => p.spanId === s.parentSpanId);
    const calls = byName(spans, "oceancode.model_call");
    // step 1 answered at once; step 2 failed once (429) and was retried: three attempts in all
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => stepOf(c) !== undefined)).toBe(true);
    const tools = byName(spans, "oceancode.tool_call");
    expect(tools).toHaveLength(1);
    expect(attrs(stepOf(tools[0]!)?.attributes)["oceancode.step"]).toBe(1);
    // a child ends within its parent
    for (const s of [...calls, ...tools]) {
      const p = stepOf(s)!;
      expect(BigInt(s.startTimeUnixNano) >= BigInt(p.startTimeUnixNano) - 1_000_000n).toBe(true);
      expect(BigInt(s.endTimeUnixNano) <= BigInt(p.endTimeUnixNano) + 1_000_000n).toBe(true);
    }
  });

  it("carries the attributes: session, turn, reason; model, tokens, attempt, outcome, error code; tool, outcome, decision", () => {
    const spans = col.spans();
    const session = /session: (ses_[0-9a-z]+)/.exec(r.stderr)?.[1];
    expect(session).toBeDefined();
    const turn = attrs(byName(spans, "oceancode.turn")[0]!.attributes);
    expect(turn).toMatchObject({ "session.id": session, "oceancode.turn": 1, "oceancode.turn.reason": "end_turn", "oceancode.prompt.size": `summarise ${PROMPT_CANARY}`.length });
    const calls = byName(spans, "oceancode.model_call").map((s) => ({ a: attrs(s.attributes), status: s.status?.code ?? 0, kind: s.kind }));
    for (const c of calls) expect(c.a).toMatchObject({ "gen_ai.system": "scripted", "gen_ai.request.model": "scripted/s.json", "gen_ai.operation.name": "chat" });
    const retried = calls.find((c) => c.a["oceancode.outcome"] === "retry");
    expect(retried?.a).toMatchObject({ "oceancode.attempt": 0, "error.type": "rate_limited" });
    expect(retried?.status).toBe(2); // STATUS_CODE_ERROR
    const ok = calls.filter((c) => c.a["oceancode.outcome"] === "ok");
    expect(ok).toHaveLength(2);
    expect(ok.map((c) => c.a["oceancode.attempt"]).sort()).toEqual([0, 1]);
    for (const c of ok) {
      expect(c.status).toBe(0);
      expect(c.a["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(c.a["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      expect(c.a["oceancode.time_to_first_token_ms"]).toBeGreaterThanOrEqual(0);
      expect(c.kind).toBe(3); // SPAN_KIND_CLIENT
    }
    const step = attrs(byName(spans, "oceancode.step")[0]!.attributes);
    expect(step).toMatchObject({ "gen_ai.request.model": "scripted/s.json" });
    expect(step["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
    const tool = attrs(byName(spans, "oceancode.tool_call")[0]!.attributes);
    expect(tool).toMatchObject({ "gen_ai.tool.name": "read", "oceancode.tool.outcome": "ok", "oceancode.tool.decision_source": expect.any(String) });
    expect(tool["oceancode.tool.output_size"]).toBeGreaterThan(FILE_CANARY.length);
  });

  it("has one hook span per hook call with taps, under the turn or its step", () => {
    const spans = col.spans();
    const hooks = byName(spans, "oceancode.hook").map((s) => ({ s, a: attrs(s.attributes) }));
    const names = hooks.map((h) => h.a["oceancode.hook.name"]);
    expect(names).toEqual(expect.arrayContaining(["engine.userPrompt", "engine.contextBuild", "engine.modelRequest", "engine.afterModelCall", "engine.authorizeToolCall", "engine.afterStep", "engine.afterTurn"]));
    expect(names).not.toContain("engine.executeTool"); // the tool_call span covers the wrap
    const parents = new Set([...byName(spans, "oceancode.turn"), ...byName(spans, "oceancode.step")].map((s) => s.spanId));
    for (const h of hooks) {
      expect(parents.has(h.s.parentSpanId ?? ""), String(h.a["oceancode.hook.name"])).toBe(true);
      expect(h.a["oceancode.hook.taps"]).toBeGreaterThan(0);
    }
    const afterModelCalls = hooks.filter((h) => h.a["oceancode.hook.name"] === "engine.afterModelCall");
    expect(afterModelCalls).toHaveLength(3);
  });

  it("honours the standard variables: service name, resource attributes, headers; posts OTLP JSON", () => {
    expect(col.resource()).toMatchObject({ "service.name": "oc-ci", "deployment.environment": "test", team: "core", "telemetry.sdk.name": "opentelemetry" });
    const posts = col.requests.filter((q) => q.path === "/v1/traces");
    expect(posts.length).toBeGreaterThan(0);
    for (const p of posts) {
      expect(p.headers["content-type"]).toContain("application/json");
      expect(p.headers["x-team"]).toBe("ocean ops");
      expect(p.headers.authorization).toBe("Bearer tok123");
    }
  });

  it("exports no content without obs.otel_log_content: the canary prompt and file text are in no body", () => {
    expect(r.stdout).toContain("Done reading.");
    const bodies = col.bodies();
    expect(bodies.length).toBeGreaterThan(0);
    for (const b of bodies) {
      expect(b).not.toContain(PROMPT_CANARY);
      expect(b).not.toContain(FILE_CANARY);
      expect(b).not.toContain("notes.txt");
    }
  });

  it("loads the OpenTelemetry SDK (the control for the off case's import check)", () => {
    expect(otelLoaded(r).length).toBeGreaterThan(0);
  });
});

describe("telemetry content, by config", () => {
  it("obs.otel + obs.otel_log_content (and only a traces endpoint): the prompt, model text and tool input/output are exported", async () => {
    const col = await startOtlpCollector();
    try {
      const cfgHome = makeSandbox("oc-otel-cfg-");
      try {
        fs.mkdirSync(path.join(cfgHome.home, ".config", "oceancode"), { recursive: true });
        fs.writeFileSync(path.join(cfgHome.home, ".config", "oceancode", "oceancode.json"), JSON.stringify({ obs: { otel: true, otel_log_content: true } }));
        const r = await run({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${col.url}/v1/traces` }, cfgHome.env);
        expect(r.code, r.stderr).toBe(0);
        const spans = col.spans();
        const turn = attrs(byName(spans, "oceancode.turn")[0]?.attributes);
        expect(turn["oceancode.prompt"]).toBe(`summarise ${PROMPT_CANARY}`);
        const tool = attrs(byName(spans, "oceancode.tool_call")[0]?.attributes);
        expect(String(tool["oceancode.tool.input"])).toContain("notes.txt");
        expect(String(tool["oceancode.tool.output"])).toContain(FILE_CANARY);
        const texts = byName(spans, "oceancode.model_call").map((s) => attrs(s.attributes)["oceancode.response.text"]);
        expect(texts).toContain("Done reading.");
        // a traces endpoint alone: no metrics are sent anywhere
        expect(col.requests.every((q) => q.path === "/v1/traces")).toBe(true);
      } finally {
        cfgHome.cleanup();
      }
    } finally {
      await col.close();
    }
  });
});

describe("a sub-agent", () => {
  it("its turn is a child of the parent's agent tool call: one trace", async () => {
    const col = await startOtlpCollector();
    try {
      const r = await run({ OC_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: col.url }, sb.env, "agent.json");
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("Parent done.");
      const spans = col.spans();
      const turns = byName(spans, "oceancode.turn");
      expect(turns).toHaveLength(2);
      const root = turns.find((t) => !t.parentSpanId)!;
      const child = turns.find((t) => t !== root)!;
      const tool = byName(spans, "oceancode.tool_call").find((t) => attrs(t.attributes)["gen_ai.tool.name"] === "agent")!;
      expect(child.parentSpanId).toBe(tool.spanId);
      expect(attrs(child.attributes)["oceancode.parent_session.id"]).toBe(attrs(root.attributes)["session.id"]);
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
      const childModelCalls = byName(spans, "oceancode.model_call").filter((c) => attrs(c.attributes)["gen_ai.request.model"] === "scripted/echo");
      expect(childModelCalls).toHaveLength(1);
    } finally {
      await col.close();
    }
  });
});

describe("turn boundaries and errors", () => {
  it("a step cap splits the prompt into root turns (step_cap, stopped_by steps); a failed request marks model call, step and turn ERROR", async () => {
    const col = await startOtlpCollector();
    try {
      const on = { OC_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: col.url };
      const [capped, failed] = await Promise.all([run({ ...on, OC_MAX_STEPS: "1" }), run(on, sb.env, "fail.json")]);
      expect(capped.code, capped.stderr).toBe(0);
      expect(failed.code).not.toBe(0);
      const spans = col.spans();
      const sessionOf = (r: Run) => /session: (ses_[0-9a-z]+)/.exec(r.stderr)?.[1];
      const turnsOf = (sid: string | undefined) => byName(spans, "oceancode.turn").filter((t) => attrs(t.attributes)["session.id"] === sid);
      const cappedTurns = turnsOf(sessionOf(capped)).map((t) => ({ parent: t.parentSpanId ?? "", ...attrs(t.attributes) }));
      expect(cappedTurns.map((t) => [t["oceancode.turn"], t["oceancode.turn.reason"], t["oceancode.turn.stopped_by"], t.parent])).toEqual([
        [1, "step_cap", "steps", ""],
        [2, "end_turn", undefined, ""],
      ]);
      const [failedTurn] = turnsOf(sessionOf(failed));
      expect(attrs(failedTurn!.attributes)["oceancode.turn.reason"]).toBe("error");
      expect(failedTurn!.status?.code).toBe(2);
      const inFailed = spans.filter((s) => s.traceId === failedTurn!.traceId);
      const step = byName(inFailed, "oceancode.step")[0]!;
      const call = byName(inFailed, "oceancode.model_call")[0]!;
      expect([step.status?.code, call.status?.code]).toEqual([2, 2]);
      expect(attrs(call.attributes)).toMatchObject({ "oceancode.outcome": "error", "error.type": "auth" });
    } finally {
      await col.close();
    }
  });
});

describe("telemetry off", () => {
  it("endpoint set but not asked for, asked for but no endpoint, or a protocol it does not speak: nothing sent, no SDK loaded", async () => {
    const col = await startOtlpCollector();
    try {
      const [notAsked, noEndpoint, grpc] = await Promise.all([
        run({ OTEL_EXPORTER_OTLP_ENDPOINT: col.url }),
        run({ OC_ENABLE_TELEMETRY: "1", CLAUDE_CODE_ENABLE_TELEMETRY: "1" }),
        run({ CLAUDE_CODE_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: col.url, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
      ]);
      for (const r of [notAsked, noEndpoint, grpc]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("Done reading.");
        expect(r.loaded.length).toBeGreaterThan(10);
        expect(otelLoaded(r)).toEqual([]);
      }
      expect(notAsked.stderr).not.toContain("telemetry");
      expect(noEndpoint.stderr).not.toContain("telemetry");
      // the refused protocol: one clear warning
      expect(grpc.stderr.match(/telemetry: OTEL_EXPORTER_OTLP_PROTOCOL=grpc: .*http\/json only/g)).toHaveLength(1);
      expect(col.count).toBe(0);
    } finally {
      await col.close();
    }
  });
});

describe("an unreachable collector", () => {
  it("refused or silent: the run exits 0 with one warning, within the shutdown bound", async () => {
    // a collector that takes the connection and never answers (the exporter's own timeout is 10 s)
    const silent = await startServer({}, () => undefined);
    const closed = await startOtlpCollector();
    // with credentials in it: never shown
    const refusedUrl = closed.url.replace("http://", "http://ops:s3cretpw@");
    await closed.close();
    try {
      const [baseline, quiet, refused] = await Promise.all([
        run({}),
        run({ OC_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: silent.url }),
        run({ OC_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: refusedUrl }),
      ]);
      for (const r of [baseline, quiet, refused]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("Done reading.");
      }
      expect(silent.count).toBeGreaterThan(0); // it did try
      expect(quiet.stderr.match(/telemetry: /g), quiet.stderr).toHaveLength(1);
      expect(quiet.stderr).toContain("did not take the last export within 2000 ms");
      expect(refused.stderr.match(/telemetry: /g), refused.stderr).toHaveLength(1);
      // refused: the exporter retries with backoff, so either its failure or the bound comes first
      expect(refused.stderr).toMatch(/could not export spans|did not take the last export within 2000 ms/);
      expect(refused.ms).toBeLessThan(baseline.ms + 6_000);
      expect(refused.stderr).not.toContain("s3cretpw");
      // the bound (2 s) holds: far below the exporter's 10 s timeout (loose: the machine is shared)
      expect(quiet.ms).toBeLessThan(baseline.ms + 6_000);
    } finally {
      await silent.close();
    }
  });
});
