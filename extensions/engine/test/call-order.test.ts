/**
 * The engine's hook sequence, observed the way a third-party extension sees it: a user-tier extension
 * (plain ESM in a temp HOME) taps every engine hook and records the order; the session runs through the
 * real kernel, engine and scripted provider.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

function installRecorder(s: Sandbox, body: string): string {
  const log = path.join(s.home, "calls.jsonl");
  s.write(
    ".oceancode/extensions/recorder/manifest.json",
    JSON.stringify({ id: "recorder", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }),
    "home",
  );
  s.write(
    ".oceancode/extensions/recorder/index.js",
    `import fs from "node:fs";
const log = ${JSON.stringify(log)};
const rec = (name, extra) => fs.appendFileSync(log, JSON.stringify({ name, ...extra }) + "\\n");
export default { activate(ctx) {
  const engine = ctx.services.get("engine");
  const h = engine.hooks;
  const tap = { name: "recorder" };
  ${body}
} };`,
    "home",
  );
  return log;
}

function calls(log: string): Array<{ name: string; [k: string]: unknown }> {
  return fs.readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { name: string });
}

describe("engine hook call order", () => {
  it("runs the hooks of one prompt in the documented order", () => {
    sb = makeSandbox();
    const log = installRecorder(
      sb,
      `for (const k of ["sessionStart","sessionEnd","promptTooLong","permissionDenied","afterStep","afterTurn"]) h[k].tap(tap, () => rec(k));
       h.userPrompt.tap(tap, (v) => { rec("userPrompt"); return v; });
       h.contextBuild.tap(tap, (v) => { rec("contextBuild"); return v; });
       h.modelRequest.tap(tap, (v) => { rec("modelRequest"); return v; });
       h.authorizeToolCall.tap(tap, (c) => { rec("authorizeToolCall", { tool: c.claude.toolName }); return undefined; });
       h.executeTool.tap(tap, (next) => async (c) => { rec("executeTool"); return next(c); });
       h.toolResult.tap(tap, (r) => { rec("toolResult"); return r; });
       h.stop.tap(tap, () => { rec("stop"); return undefined; });
       engine.tools.register({ name: "probe", description: "test", kind: "other", inputSchema: { type: "object" }, claudeName: "Probe",
         run: async () => ({ content: "probed" }) });`,
    );
    sb.write("script.json", JSON.stringify({ steps: [{ text: "calling", tool_calls: [{ name: "probe", input: {} }] }, { text: "done" }] }));
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/script.json", "go"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("done");
    expect(calls(log).map((c) => c.name)).toEqual([
      "sessionStart",
      "userPrompt",
      "contextBuild",
      "modelRequest",
      "authorizeToolCall",
      "executeTool",
      "toolResult",
      "afterStep",
      "contextBuild",
      "modelRequest",
      "afterStep",
      "stop",
      "afterTurn",
      "sessionEnd",
    ]);
  });

  it("a throwing authorizeToolCall tap denies the call (fail-closed) and the model is told", () => {
    sb = makeSandbox();
    installRecorder(
      sb,
      `h.authorizeToolCall.tap(tap, () => { throw new Error("policy store offline"); });
       engine.tools.register({ name: "probe", description: "test", kind: "other", inputSchema: { type: "object" },
         run: async () => { fs.writeFileSync(${JSON.stringify(path.join(sb.home, "ran"))}, "x"); return { content: "probed" }; } });`,
    );
    sb.write("script.json", JSON.stringify({ steps: [{ tool_calls: [{ name: "probe", input: {} }] }, { text: "after" }] }));
    const rec = path.join(sb.home, "requests.jsonl");
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/script.json", "go"], { env: { ...sb.env, OC_SCRIPTED_RECORD: rec } });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(sb.home, "ran"))).toBe(false);
    const second = JSON.parse(fs.readFileSync(rec, "utf8").trim().split("\n")[1]!) as { rows: Array<{ role: string; results?: Array<{ content: string; isError: boolean }> }> };
    const toolRow = second.rows.find((x) => x.role === "tool")!;
    expect(toolRow.results![0]!.isError).toBe(true);
    expect(toolRow.results![0]!.content).toContain("policy store offline");
  });

  it("a stop tap can continue the turn, and the reason reaches the model", () => {
    sb = makeSandbox();
    installRecorder(sb, `let n = 0; h.stop.tap(tap, () => (n++ === 0 ? { continue: true, reason: "also check the docs", by: "recorder" } : undefined));`);
    sb.write("script.json", JSON.stringify({ steps: [{ text: "first" }, { text: "second" }] }));
    const rec = path.join(sb.home, "requests.jsonl");
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/script.json", "go"], { env: { ...sb.env, OC_SCRIPTED_RECORD: rec } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("second");
    const reqs = fs.readFileSync(rec, "utf8").trim().split("\n");
    expect(reqs).toHaveLength(2);
    expect(reqs[1]).toContain("also check the docs");
  });
});
