/**
 * OpenCode agents declared in opencode.json (smaller finding 50): the reader on real files (`agent` and
 * `agents`, `{file:}` prompts kept inside their root, names, modes), then the compiled CLI `run` against the
 * fake Anthropic server with the project's opencode.json, .opencode/opencode.json and the user's
 * ~/.config/opencode/opencode.json: listed, started as sub-agents with their prompt and tools, a repo
 * agent's model held to what the user configured, and `inspect` rows.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, REPO_ROOT, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, systemOf, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { readConfigAgents } from "../opencode-config.js";

const isParent = (req: AnthropicRecorded) => systemOf(req).includes("<available_agents>");
const toolNames = (req: AnthropicRecorded) => (req.body.tools ?? []).map((t) => String(t.name));

describe("readConfigAgents", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-agents-occfg-"));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("maps `agent` and `agents` entries: prompt or system, tools off, primary and disabled not sub-agents", () => {
    const dir = path.join(tmp, "p1");
    fs.mkdirSync(path.join(dir, "prompts"), { recursive: true });
    fs.writeFileSync(path.join(dir, "prompts", "review.md"), "REVIEW PROMPT FROM FILE\n");
    const file = path.join(dir, "opencode.jsonc");
    fs.writeFileSync(
      file,
      `{
  // comments and trailing commas, as OpenCode allows
  "agent": {
    "reviewer": { "description": "reviews code", "mode": "subagent", "prompt": "{file:./prompts/review.md}", "tools": { "bash": false, "write": false, "read": true }, "model": "anthropic/claude-haiku-4-5" },
    "boss": { "description": "primary", "mode": "primary", "prompt": "P" },
    "off": { "description": "switched off", "disable": true },
    "bad name!": { "description": "odd", "prompt": "x" },
  },
  "agents": { "writer": { "description": "writes", "system": "WRITER SYSTEM" }, "reviewer": { "description": "second spelling" } },
}`,
    );
    const agents = readConfigAgents(file, dir);
    const by = Object.fromEntries(agents.map((a) => [a.name, a]));
    expect(Object.keys(by).sort()).toEqual(["bad-name", "boss", "off", "reviewer", "writer"]);
    expect(by.reviewer).toMatchObject({ description: "reviews code", prompt: "REVIEW PROMPT FROM FILE", tools: { mode: "deny", names: ["bash", "write"] }, model: "anthropic/claude-haiku-4-5", invocable: true, file });
    expect(by.boss!.invocable).toBe(false);
    expect(by.off!.invocable).toBe(false);
    expect(by.writer).toMatchObject({ prompt: "WRITER SYSTEM", tools: { mode: "all" }, invocable: true });
    expect(by["bad-name"]!.warning).toMatch(/'bad name!' is not a valid agent name; loaded as 'bad-name'/);
  });

  it("a {file:} prompt outside its root (a path up, an absolute one, a symlink out) is not read", () => {
    const dir = path.join(tmp, "p2");
    fs.mkdirSync(dir, { recursive: true });
    const secret = path.join(tmp, "secret.txt");
    fs.writeFileSync(secret, "CANARY-SECRET");
    fs.symlinkSync(secret, path.join(dir, "link.md"));
    const file = path.join(dir, "opencode.json");
    fs.writeFileSync(file, JSON.stringify({ agent: { up: { prompt: "{file:../secret.txt}" }, abs: { prompt: `{file:${secret}}` }, link: { prompt: "{file:./link.md}" }, gone: { prompt: "{file:./nope.md}" } } }));
    const agents = readConfigAgents(file, dir);
    expect(agents).toHaveLength(4);
    for (const a of agents) {
      expect(a.prompt).not.toContain("CANARY");
      expect(a.warning).toMatch(/prompt \{file:/);
    }
    expect(agents.find((a) => a.name === "gone")!.warning).toMatch(/no such file/);
    expect(agents.find((a) => a.name === "up")!.warning).toMatch(/outside/);
  });

  it("the example (examples/agents/opencode) reads as one read-only reviewer", () => {
    const dir = path.join(REPO_ROOT, "examples", "agents", "opencode");
    const [a, ...rest] = readConfigAgents(path.join(dir, "opencode.json"), dir);
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ name: "reviewer", invocable: true, tools: { mode: "deny", names: ["bash", "write", "edit"] } });
    expect(a!.prompt).toMatch(/^You review the change/);
    expect(a!.warning).toBeUndefined();
  });

  it("a file that does not parse, or has no agents, gives none", () => {
    const file = path.join(tmp, "broken.json");
    fs.writeFileSync(file, '{"agent": {');
    expect(readConfigAgents(file, tmp)).toEqual([]);
    fs.writeFileSync(file, '{"mcp": {}}');
    expect(readConfigAgents(file, tmp)).toEqual([]);
  });
});

describe("opencode.json agents through run", () => {
  let fake: FakeAnthropicServer;
  let sb: Sandbox;
  let result: RunResult;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    sb = makeSandbox("oc-agents-occfg-run-");
    sb.write("prompts/review.md", "OPENCODE REVIEWER PROMPT\n");
    // the project's own opencode.json (no .opencode/ needed for it) and the .opencode/ one, both repo tier
    sb.write("opencode.json", JSON.stringify({ agent: { reviewer: { description: "reviews with opencode", mode: "subagent", prompt: "{file:./prompts/review.md}", tools: { bash: false }, model: "scripted/evil.json" }, boss: { mode: "primary", prompt: "BOSS" } } }));
    sb.write(".opencode/opencode.json", JSON.stringify({ agent: { deployer: { description: "deploys things", prompt: "DEPLOYER PROMPT" } } }));
    sb.write(".config/opencode/opencode.json", JSON.stringify({ agents: { helper: { description: "the user's helper", system: "USER HELPER SYSTEM" } } }), "home");
    const git = (...a: string[]) => spawnSync("git", ["-C", sb.project, "-c", "user.email=t@t", "-c", "user.name=t", ...a], { encoding: "utf8" });
    git("add", "-A");
    git("commit", "-qm", "checkout");
    let parentTurn = 0;
    fake.respond((req) => {
      if (isParent(req)) return parentTurn++ === 0 ? { text: "delegating", toolCalls: [{ id: "t_rev", name: "agent", input: { subagent_type: "reviewer", description: "review it", prompt: "review the code" } }] } : { text: "parent done" };
      return { text: "REVIEW RESULT" };
    });
    result = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "review please"], { cwd: sb.project, env: anthropicEnv(sb, fake.url), timeoutMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    await fake.close();
    sb.cleanup();
  });

  it("every file's sub-agents are listed; a primary one is not", () => {
    expect(result.code, result.stderr).toBe(0);
    const listing = systemOf(fake.requests.find(isParent)!);
    expect(listing).toContain("- reviewer: reviews with opencode");
    expect(listing).toContain("- deployer: deploys things");
    expect(listing).toContain("- helper: the user's helper");
    expect(listing).not.toMatch(/^- boss:/m);
  });

  it("the agent runs with its {file:} prompt and without the tools it turns off; its repo-chosen model is held to the user's", () => {
    const child = fake.requests.find((r) => !isParent(r) && systemOf(r).includes("OPENCODE REVIEWER PROMPT"));
    expect(child, "the child's request reached the fake: it ran on the base model, not scripted/evil.json").toBeDefined();
    expect(toolNames(child!)).not.toContain("bash");
    expect(toolNames(child!)).toContain("read");
    expect(result.stderr).toContain("scripted/evil.json");
    expect(result.stdout).toContain("parent done");
  });

  it("inspect lists them at their tiers with the config file as source", async () => {
    const r = await runCliAsync(["inspect", "--json"], { cwd: sb.project, env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as Array<{ kind: string; id: string; layer: string; source: string; value: string }>).filter((x) => x.kind === "agent");
    const row = (id: string) => rows.find((x) => x.id === id);
    expect(row("repo.open_code:reviewer")).toMatchObject({ layer: "repo", source: path.join(sb.project, "opencode.json") });
    expect(row("repo.open_code:deployer")).toMatchObject({ layer: "repo", source: path.join(sb.project, ".opencode", "opencode.json") });
    expect(row("user.open_code:helper")).toMatchObject({ layer: "user", source: path.join(sb.home, ".config", "opencode", "opencode.json") });
  });
});
