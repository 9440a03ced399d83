/**
 * `oceancode run --metrics-out <file>`: the final metrics as Prometheus text at exit, read with the real
 * parser, after a clean run, a run that ends in a provider error and one a clock bound stops. A run that asks
 * for no metrics never loads prom-client (the module load log: no prom-metrics chunk) and writes nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { FAMILIES, formProblems, parseProm, sample } from "../../../test/kit/prom.js";

let sb: Sandbox;
let log: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  sb = makeSandbox("oc-metrics-out-");
  sb.write("notes.txt", "hello\n");
  sb.write("ok.json", JSON.stringify({ steps: [{ text: "reading", tool_calls: [{ name: "read", input: { file_path: path.join(sb.project, "notes.txt") } }] }, { text: "done" }] }));
  sb.write("fail.json", JSON.stringify({ steps: [{ error: { code: "auth", message: "bad key", times: 99 } }] }));
  sb.write("slow.json", JSON.stringify({ steps: [{ text: "a", delay_ms: 150, tool_calls: [{ name: "read", input: { file_path: path.join(sb.project, "notes.txt") } }], repeat: 20 }] }));
  // a module load hook that records every ES module URL the CLI loads
  const hooks = sb.write("hooks.mjs", `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(process.env.OC_TEST_LOADLOG, url + "\\n"); return next(url, context); }\n`, "home");
  const reg = sb.write("register.mjs", `import { register } from "node:module";\nimport { pathToFileURL } from "node:url";\nregister(pathToFileURL(${JSON.stringify(hooks)}));\n`, "home");
  log = path.join(sb.home, "loaded.txt");
  env = { ...sb.env, NODE_OPTIONS: `--import ${reg}`, OC_TEST_LOADLOG: log };
});
afterAll(() => sb.cleanup());

const PROM_CHUNK = /\/chunks\/prom-metrics-[^/]*\.js$/m;
const loaded = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "");
const run = (args: string[]) => {
  fs.rmSync(log, { force: true });
  return runCli(["--directory", sb.project, "run", ...args], { env, cwd: sb.project });
};

describe("run --metrics-out", () => {
  it("writes the final metrics after a clean run (a relative path is the current directory's), and loads prom-client for it", () => {
    const r = run(["--metrics-out", "out/ok.prom", "-m", "scripted/ok.json", "read the notes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(loaded()).toMatch(PROM_CHUNK);
    const text = fs.readFileSync(path.join(sb.project, "out", "ok.prom"), "utf8");
    const fams = parseProm(text);
    expect(formProblems(text, fams)).toEqual([]);
    for (const name of FAMILIES) expect(fams.map((f) => f.name)).toContain(name);
    expect(sample(text, fams, "oceancode_steps_total")).toBe(2);
    expect(sample(text, fams, "oceancode_turns_total", { reason: "end_turn" })).toBe(1);
    expect(sample(text, fams, "oceancode_tool_calls_total", { tool: "read", outcome: "ok" })).toBe(1);
    expect(sample(text, fams, "oceancode_tool_duration_seconds", { tool: "read" })).toBe(1);
    expect(sample(text, fams, "oceancode_model_call_duration_seconds", { provider: "scripted", outcome: "ok" })).toBe(2);
    expect(sample(text, fams, "oceancode_permission_decisions_total", { decision: "allow" })).toBe(1);
    // everything written was committed by exit: no lag left
    expect(sample(text, fams, "oceancode_writer_lag_ms")).toBe(0);
    expect(sample(text, fams, "oceancode_writer_queue_depth")).toBe(0);
    expect(sample(text, fams, "oceancode_open_sessions")).toBe(0);
  });

  it("also after a run that ends in a provider error (exit 1) and one a clock bound stops", () => {
    const failed = run(["--metrics-out", path.join(sb.home, "fail.prom"), "-m", "scripted/fail.json", "go"]);
    expect(failed.code, failed.stderr).toBe(1);
    const ft = fs.readFileSync(path.join(sb.home, "fail.prom"), "utf8");
    const ff = parseProm(ft);
    expect(formProblems(ft, ff)).toEqual([]);
    expect(sample(ft, ff, "oceancode_turns_total", { reason: "error" })).toBe(1);
    expect(sample(ft, ff, "oceancode_model_call_duration_seconds", { provider: "scripted", outcome: "error" })).toBe(1);

    const bound = run(["--max-minutes", "0.005", "--metrics-out", path.join(sb.home, "bound.prom"), "-m", "scripted/slow.json", "go"]);
    expect(bound.code, bound.stderr).toBe(0);
    const bt = fs.readFileSync(path.join(sb.home, "bound.prom"), "utf8");
    const bf = parseProm(bt);
    expect(formProblems(bt, bf)).toEqual([]);
    expect(sample(bt, bf, "oceancode_turns_total", { reason: "step_cap" })).toBe(1);
    const steps = sample(bt, bf, "oceancode_steps_total")!;
    expect(steps).toBeGreaterThanOrEqual(1);
    expect(steps).toBeLessThan(20);
  });

  it("a run without it loads no prom-client and writes no metrics", () => {
    const before = fs.readdirSync(sb.project).sort();
    const r = run(["-m", "scripted/ok.json", "read the notes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(loaded()).toContain("/dist/hosts/cli/main.js");
    expect(loaded()).not.toMatch(PROM_CHUNK);
    expect(fs.readdirSync(sb.project).sort()).toEqual(before);
  });

  it("metrics.enabled false wins over --metrics-out: nothing loaded, nothing written", () => {
    const cfg = sb.write(".oceancode/oceancode.json", JSON.stringify({ metrics: { enabled: false } }));
    try {
      const r = run(["--metrics-out", path.join(sb.home, "off.prom"), "-m", "scripted/echo", "hi"]);
      expect(r.code, r.stderr).toBe(0);
      expect(loaded()).not.toMatch(PROM_CHUNK);
      expect(fs.existsSync(path.join(sb.home, "off.prom"))).toBe(false);
    } finally {
      fs.rmSync(cfg);
    }
  });

  it("counts hook failures from the kernel's hook error log, by hook", () => {
    // a user extension whose afterStep tap throws on every step (the engine goes on: the hook fails open)
    const dir = path.join(sb.home, ".oceancode", "extensions", "boom");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ id: "boom", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }));
    fs.writeFileSync(path.join(dir, "index.js"), 'export default { activate(ctx) { ctx.services.get("engine").hooks.afterStep.tap({ name: "boom" }, () => { throw new Error("boom"); }); } };\n');
    try {
      const r = run(["--metrics-out", path.join(sb.home, "hooks.prom"), "-m", "scripted/ok.json", "read the notes"]);
      expect(r.code, r.stderr).toBe(0);
      const text = fs.readFileSync(path.join(sb.home, "hooks.prom"), "utf8");
      const fams = parseProm(text);
      expect(sample(text, fams, "oceancode_hook_errors_total", { hook: "engine.afterStep" })).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts an MCP server that fails its handshake", () => {
    const cfg = sb.write(".claude.json", JSON.stringify({ mcpServers: { broken: { command: "/nonexistent/bin", args: [] } } }), "home");
    try {
      const r = run(["--metrics-out", path.join(sb.home, "mcp.prom"), "-m", "scripted/echo", "hi"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/MCP server "broken" failed/);
      const text = fs.readFileSync(path.join(sb.home, "mcp.prom"), "utf8");
      const fams = parseProm(text);
      expect(sample(text, fams, "oceancode_mcp_errors_total", { kind: "connect" })).toBe(1);
      expect(sample(text, fams, "oceancode_mcp_errors_total", { kind: "call" })).toBe(0);
    } finally {
      fs.rmSync(cfg);
    }
  });

  it("an ask that run without --auto rejects: decided ask, answered by the host, denied", () => {
    const cfg = sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
    sb.write("ask.json", JSON.stringify({ steps: [{ text: "trying", tool_calls: [{ name: "bash", input: { command: "touch never-made" } }] }, { text: "ok then" }] }));
    try {
      const r = run(["--metrics-out", path.join(sb.home, "ask.prom"), "-m", "scripted/ask.json", "go"]);
      expect(r.code, r.stderr).toBe(0);
      expect(fs.existsSync(path.join(sb.project, "never-made"))).toBe(false);
      const text = fs.readFileSync(path.join(sb.home, "ask.prom"), "utf8");
      const fams = parseProm(text);
      expect(sample(text, fams, "oceancode_permission_decisions_total", { decision: "ask" })).toBe(1);
      expect(sample(text, fams, "oceancode_permission_answers_total", { answered_by: "host", verdict: "deny" })).toBe(1);
      expect(sample(text, fams, "oceancode_tool_calls_total", { tool: "bash", outcome: "denied" })).toBe(1);
      // a denied call never ran: no latency observed for it
      expect(sample(text, fams, "oceancode_tool_duration_seconds", { tool: "bash" })).toBeUndefined();
    } finally {
      fs.rmSync(cfg);
    }
  });

  it("--metrics-out needs a value", () => {
    const r = run(["--metrics-out"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--metrics-out needs a value");
  });
});
