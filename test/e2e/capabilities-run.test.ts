/**
 * Every capability kind at once, end to end: the compiled CLI `run` against the fake Anthropic server
 * (the real SDK) with one fixture HOME and project holding skills, commands, agents and rules at the
 * local, repo, user and plugin tiers (Claude Code's installed plugins: one enabled, one disabled in
 * ~/.claude/settings.json), a name that collides at three tiers, and scoped rules with and without a
 * matching file. The prompt is typed as `/review src/a.ts`; the scripted model then loads a skill through
 * the `skill` tool and starts a sub-agent through the `agent` tool. Then `plugin import --dry-run` reads
 * the same Claude Code tree and writes nothing.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../kit/cli.js";
import type { AnthropicRecorded } from "../kit/fakes/anthropic-server.js";
import { firstUserText, isParent, resultOf, systemOf, textOf, toolNames } from "../../extensions/agents/test/helpers.js";
import { treeHash, writeFiles } from "../../extensions/plugins/test/fixtures.js";
import { runOnceOnFake } from "../kit/file-fixtures.js";


const parents = () => fake.requests.filter(isParent);
const children = () => fake.requests.filter((r) => !isParent(r));

function claudePlugin(name: string, files: Record<string, string>): string {
  const dir = path.join(sb.home, ".claude", "plugins", "cache", "mk", name, "1.0.0");
  writeFiles(dir, { ".claude-plugin/plugin.json": JSON.stringify({ name, version: "1.0.0" }), ...files });
  return dir;
}

const { fake, sb, result } = runOnceOnFake("oc-capabilities-", ["--auto", "--model", "anthropic/claude-haiku-4-5", "/review src/a.ts"], (sb, fake) => {
  fake.respond((req: AnthropicRecorded) => {
    if (!isParent(req)) return { text: "CHILD FINAL: the notes say hello" };
    const n = parents().length;
    if (n === 1) return { text: "loading", toolCalls: [{ id: "toolu_skill", name: "skill", input: { skill: "user:review", args: "all" } }] };
    if (n === 2) return { text: "delegating", toolCalls: [{ id: "toolu_agent", name: "agent", input: { subagent_type: "reader", description: "read notes", prompt: "Read notes.txt" } }] };
    return { text: "all done" };
  });
  // user tier (Claude Code's ~/.claude)
  sb.write(".claude/skills/review/SKILL.md", "---\ndescription: the user's review checklist\n---\nUSER REVIEW of $ARGUMENTS\n", "home");
  sb.write(".claude/agents/reader.md", "---\ndescription: the user's reader\ntools: Read\n---\nUSER READER BODY\n", "home");
  sb.write(".claude/CLAUDE.md", "USER MEMORY: prefer small commits\n", "home");
  // plugin tier: Claude Code's installs, kit enabled, off disabled in ~/.claude/settings.json
  const kit = claudePlugin("kit", {
    "skills/lint/SKILL.md": "---\ndescription: lint with the kit\n---\nKIT LINT BODY\n",
    "commands/ship.md": "---\ndescription: ship it\n---\nKIT SHIP BODY\n",
    "agents/kit-helper.md": "---\ndescription: the kit's helper\n---\nKIT HELPER BODY\n",
    "rules/kit.md": "KIT RULE: always run the kit\n",
  });
  const off = claudePlugin("off", {
    "skills/hidden/SKILL.md": "---\ndescription: never offered\n---\nOFF BODY\n",
    "agents/off-agent.md": "---\ndescription: never offered\n---\nOFF AGENT\n",
    "rules/off.md": "OFF RULE: must not load\n",
  });
  const row = (p: string) => [{ scope: "user", installPath: p, version: "1.0.0", installedAt: "2026-01-01T00:00:00.000Z" }];
  sb.write(".claude/plugins/installed_plugins.json", JSON.stringify({ version: 2, plugins: { "kit@mk": row(kit), "off@mk": row(off) } }), "home");
  sb.write(".claude/settings.json", JSON.stringify({ enabledPlugins: { "kit@mk": true, "off@mk": false } }), "home");
  // repo tier (the checkout's .claude): the same skill name again, a command, an agent that shadows the user's, scoped rules
  sb.write(".claude/skills/review/SKILL.md", "---\ndescription: the repo's review rules\n---\nREPO REVIEW of $ARGUMENTS\n");
  sb.write(".claude/commands/deploy.md", "---\ndescription: Deploy the app\nargument-hint: [env]\n---\nDeploy to $ARGUMENTS.\n");
  sb.write(".claude/agents/reader.md", "---\nname: reader\ndescription: the repo's reader\ntools: Read\n---\nREPO READER BODY\n");
  sb.write(".claude/rules/typescript.md", '---\npaths: "**/*.ts"\n---\nTS RULE: strict mode\n');
  sb.write(".claude/rules/python.md", '---\npaths: "**/*.py"\n---\nPY RULE: must not load\n');
  sb.write("CLAUDE.md", "PROJECT MEMORY: run npm test\n");
  sb.write("src/a.ts", "export const a = 1;\n");
  sb.write("notes.txt", "hello\n");
  // local tier (the project's untracked .oceancode): the narrowest review, and a unique skill
  sb.write(".oceancode/skills/review/SKILL.md", "---\ndescription: my own review\n---\nLOCAL REVIEW of $ARGUMENTS\n");
  sb.write(".oceancode/skills/tdd/SKILL.md", "---\ndescription: test first\n---\nWrite the failing test first.\n");
}, { timeoutMs: 90_000, hookTimeoutMs: 120_000 });

describe("every capability kind through one run", () => {
  it("the run succeeds", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(parents().length).toBe(3);
  });

  it("the first request lists each enabled skill and command once, collisions qualified, the disabled plugin's absent", () => {
    const sys = systemOf(parents()[0]!);
    const block = sys.slice(sys.indexOf("<available_skills>"), sys.indexOf("</available_skills>"));
    for (const line of ["- local:review: my own review", "- repo:review: the repo's review rules", "- user:review: the user's review checklist", "- tdd: test first", "- deploy [env]: Deploy the app (command)", "- kit:lint: lint with the kit", "- kit:ship: ship it (command)"]) {
      expect(block).toContain(line);
    }
    expect(block).not.toContain("hidden");
    expect(sys).toContain("kit:kit-helper");
    expect(sys).not.toContain("off-agent");
  });

  it("the tools array has one skill tool and one agent tool, and is the same in every parent request", () => {
    const names = toolNames(parents()[0]!);
    expect(names.filter((n) => n === "skill")).toHaveLength(1);
    expect(names.filter((n) => n === "agent")).toHaveLength(1);
    for (const r of parents()) expect(toolNames(r)).toEqual(names);
  });

  it("the typed /review runs the narrowest copy (local) as a command turn with its arguments", () => {
    const first = firstUserText(parents()[0]!);
    expect(first).toContain("LOCAL REVIEW of src/a.ts");
    expect(first).not.toContain("REPO REVIEW");
  });

  it("memory goes in the first user message: user and project files, the matching scoped rule and the enabled plugin's rule only", () => {
    const first = firstUserText(parents()[0]!);
    for (const s of ["USER MEMORY", "PROJECT MEMORY", "TS RULE", "KIT RULE"]) expect(first).toContain(s);
    for (const s of ["PY RULE", "OFF RULE"]) expect(first).not.toContain(s);
    expect(systemOf(parents()[0]!)).not.toContain("PROJECT MEMORY");
  });

  it("the skill tool returns the body the qualified name names", () => {
    expect(textOf(resultOf(parents()[1]!, "toolu_skill"))).toContain("USER REVIEW of all");
  });

  it("the agent tool runs the narrowest reader as a child with only its tools, and returns the child's final text", () => {
    const kids = children();
    expect(kids.length).toBeGreaterThan(0);
    expect(systemOf(kids[0]!).startsWith("REPO READER BODY")).toBe(true);
    expect(toolNames(kids[0]!)).toEqual(["read"]);
    expect(textOf(resultOf(parents()[2]!, "toolu_agent"))).toContain("CHILD FINAL: the notes say hello");
  });

  it("plugin import --dry-run reads the same Claude Code tree, reports each action and writes nothing", () => {
    const before = { claude: treeHash(path.join(sb.home, ".claude")), oc: treeHash(path.join(sb.home, ".oceancode")) };
    const r = runCli(["plugin", "import", "--from", "claude-code", "--dry-run", "--root", sb.project], { cwd: sb.project, env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toContain("IMPORT kit@mk 1.0.0 enabled untrusted");
    expect(lines).toContain("IMPORT off@mk 1.0.0 disabled untrusted");
    expect(lines.at(-1)).toMatch(/^IMPORT_DRY_RUN_OK plugins=2 marketplaces=0 repo_trust=false$/);
    expect({ claude: treeHash(path.join(sb.home, ".claude")), oc: treeHash(path.join(sb.home, ".oceancode")) }).toEqual(before);
  });
});
