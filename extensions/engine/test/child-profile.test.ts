/**
 * Child (sub-agent) sessions: the engine itself enforces a child's profile (architecture rule 15): its
 * system opening, its tool allow-list (offered and run) and its step cap, which ends the prompt with
 * reason step_cap instead of opening a fresh turn. In process, the real kernel and bundled extensions,
 * the scripted provider.
 */
import { describe, expect, it } from "vitest";
import type { Kernel } from "../../../kernel/kernel.js";
import type { EngineService, ModelRequest, ToolResult } from "../api.js";
import type { Sandbox } from "../../../test/kit/cli.js";
import { kernelTests } from "../../../test/kit/kernel-boot.js";

let sb: Sandbox;
let kernel: Kernel | undefined;
const { makeSandbox, discoverKernel } = kernelTests();

async function boot(env: NodeJS.ProcessEnv = {}): Promise<{ engine: EngineService; requests: Map<string, ModelRequest[]>; results: ToolResult[] }> {
  sb = makeSandbox("oc-child-");
  sb.write("notes.txt", "hello\n");
  sb.write(
    "loop.json",
    JSON.stringify({ steps: [{ repeat: 50, text: "step {{n}}", tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }, { name: "bash", input: { command: "echo hi" } }] }] }),
  );
  kernel = await discoverKernel(sb, env);
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const requests = new Map<string, ModelRequest[]>();
  const results: ToolResult[] = [];
  engine.hooks.modelRequest.tap({ name: "test", stage: "observe" }, (req) => {
    requests.set(req.sessionId, [...(requests.get(req.sessionId) ?? []), req]);
    return req;
  });
  engine.hooks.toolResult.tap({ name: "test", stage: "observe" }, (r) => {
    results.push(r);
    return r;
  });
  return { engine, requests, results };
}

describe("child session profile", () => {
  it("system opening, tool allow-list and step cap are the engine's: a refused tool never runs, the cap ends the prompt", async () => {
    const { engine, requests, results } = await boot();
    const parent = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    const child = await engine.createSession({
      cwd: sb.project,
      model: "scripted/loop.json",
      parentId: parent.info.id,
      profile: { system: "YOU ARE THE READER", tools: ["read"], maxSteps: 3 },
    });
    const r = await engine.prompt(child, "go");
    expect(r.reason).toBe("step_cap");
    expect(child.totals.steps).toBe(3);
    expect(child.totals.turns).toBe(1);
    const reqs = requests.get(child.info.id)!;
    expect(reqs).toHaveLength(3);
    for (const q of reqs) {
      expect(q.tools.map((t) => t.name)).toEqual(["read"]);
      expect(q.system[0]).toBe("YOU ARE THE READER");
      expect(q.system.join("\n")).not.toContain("You are oceancode");
    }
    const bash = results.filter((x) => x.name === "bash");
    expect(bash).toHaveLength(3);
    for (const b of bash) expect(b).toMatchObject({ isError: true, content: "unknown tool 'bash'; available: read" });
    expect(results.filter((x) => x.name === "read" && !x.isError)).toHaveLength(3);
    expect(child.rows.at(-1)).toMatchObject({ role: "note", text: "[sub-agent step cap 3 reached: the sub-agent stops here]" });
    // the parent is untouched: every tool, the generic opening
    await engine.prompt(parent, "hi");
    const p = requests.get(parent.info.id)![0]!;
    expect(p.system[0]).toMatch(/^You are oceancode/);
    expect(p.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read", "bash", "agent"]));
  });

  it("without profile.maxSteps a child stops at engine.max_subagent_steps ($OC_MAX_SUBAGENT_STEPS); a root session does not", async () => {
    const { engine } = await boot({ OC_MAX_SUBAGENT_STEPS: "2", OC_MAX_STEPS: "2" });
    const parent = await engine.createSession({ cwd: sb.project, model: "scripted/loop.json" });
    const child = await engine.createSession({ cwd: sb.project, model: "scripted/loop.json", parentId: parent.info.id });
    expect((await engine.prompt(child, "go")).reason).toBe("step_cap");
    expect(child.totals.steps).toBe(2);
    // the root turn's cap is a boundary: it continues in fresh turns (stopped here by an abort)
    const ac = new AbortController();
    const done = engine.prompt(parent, "go", { signal: ac.signal, onEvent: (e) => e.type === "step_end" && parent.totals.steps >= 5 && ac.abort() });
    expect((await done).reason).toBe("aborted");
    expect(parent.totals.steps).toBeGreaterThanOrEqual(5);
    expect(parent.totals.turns).toBeGreaterThan(1);
  });

  it("--continue never picks a sub-agent: the latest session of a directory is its newest root session", async () => {
    const { engine } = await boot();
    const parent = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    await engine.prompt(parent, "first");
    const child = await engine.createSession({ cwd: sb.project, model: "scripted/echo", parentId: parent.info.id });
    await engine.prompt(child, "later than the parent");
    expect(await engine.latestSessionId(sb.project)).toBe(parent.info.id);
    // the parent closes first (a background child outliving it): the child is written last
    await engine.closeSession(parent, "exit");
    await engine.prompt(child, "after the parent closed");
    await engine.closeSession(child, "done");
    // closed: answered by storage
    expect(await engine.latestSessionId(sb.project)).toBe(parent.info.id);
  });
});
