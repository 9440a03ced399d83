/**
 * Agents end to end: the compiled CLI `run` against the fake Anthropic server, with a fixture HOME and
 * project holding agents at the repo and user tiers (Claude Code, OpenCode, Grok), a user/repo collision,
 * a broken frontmatter, an enabled and a disabled Claude Code plugin, and a user-tier SubagentStop hook.
 * The fake's responder tells the parent (its system prompt carries <available_agents>) from each child
 * (its system prompt opens with the agent's body).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../../../test/kit/cli.js";
import type { AnthropicRecorded, AnthropicReply } from "../../../test/kit/fakes/anthropic-server.js";
import { findDirs, firstUserText, hasToolResult, isParent, resultOf, sessionOf, systemOf, textOf, toolNames } from "./helpers.js";
import { runOnceOnFake } from "../../../test/kit/file-fixtures.js";

let stopLog: string;

const PARENT_CALLS = [
  { id: "toolu_reader", input: { subagent_type: "reader", description: "read the notes", prompt: "Read notes.txt and report its first line." } },
  { id: "toolu_review", input: { subagent_type: "reviewer", description: "review", prompt: "Review the change." } },
  { id: "toolu_gp", input: { subagent_type: "general-purpose", description: "general task", prompt: "Do the general task." } },
  { id: "toolu_plugin", input: { subagent_type: "alpha:helper", description: "plugin agent", prompt: "Help." } },
  { id: "toolu_unknown", input: { subagent_type: "nope", description: "nothing", prompt: "Anything." } },
  { id: "toolu_hidden", input: { subagent_type: "hidden", description: "disabled plugin", prompt: "Anything." } },
];

function child(req: AnthropicRecorded): AnthropicReply {
  const sys = systemOf(req);
  if (sys.includes("READER AGENT BODY")) {
    if (!hasToolResult(req))
      return {
        text: "reading",
        toolCalls: [
          { id: "toolu_child_read", name: "read", input: { file_path: "notes.txt" } },
          { id: "toolu_child_bash", name: "bash", input: { command: "echo not allowed" } },
        ],
      };
    return { text: `READER FINAL: ${textOf(resultOf(req, "toolu_child_read")).includes("first line of notes") ? "saw the notes" : "no notes"}` };
  }
  if (sys.includes("REPO REVIEWER BODY")) return { text: "REVIEWED BY THE REPO REVIEWER" };
  if (sys.includes("USER REVIEWER BODY")) return { text: "REVIEWED BY THE USER REVIEWER" };
  if (sys.includes("PLUGIN HELPER BODY")) return { text: "HELPED BY THE PLUGIN" };
  return { text: `GENERAL DONE: ${firstUserText(req)}` };
}

const { fake, sb, result } = runOnceOnFake("oc-agents-", ["--auto", "--model", "anthropic/claude-sonnet-4-5", "use the agents"], (sb, fake) => {
  let p = 0;
  fake.respond((req) => {
    if (!isParent(req)) return child(req);
    const c = PARENT_CALLS[p++];
    return c ? { text: `calling ${c.input.subagent_type}`, toolCalls: [{ id: c.id, name: "agent", input: c.input }] } : { text: "parent done" };
  });
  stopLog = path.join(sb.home, "subagent-stop.jsonl");
  sb.write("notes.txt", "first line of notes\nsecond\n");
  // repo tier: Claude Code, OpenCode and Grok agents (inert data: read untrusted)
  sb.write(".claude/agents/reader.md", "---\nname: reader\ndescription: reads files and reports\ntools: Read\nmodel: inherit\n---\nREADER AGENT BODY: read what you are asked to and report.\n");
  sb.write(".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: the repo's reviewer\ntools:\n  - Read\n  - Grep\n---\nREPO REVIEWER BODY\n");
  sb.write(".opencode/agent/docs.md", "---\ndescription: writes docs\nmode: subagent\ntools:\n  bash: false\n  write: false\n---\nOPENCODE DOCS BODY\n");
  sb.write(".opencode/agent/boss.md", "---\ndescription: a primary agent\nmode: primary\n---\nPRIMARY\n");
  // a skill: the parent lists it; a child (no skill tool) is not shown what it could not load
  sb.write(".claude/skills/lint/SKILL.md", "---\ndescription: lint the code\n---\nLINT\n");
  sb.write(".grok/personas/pirate.md", "---\nname: pirate\ndescription: talks like a pirate\n---\nARR\n");
  // user tier: a reviewer that the repo's shadows, and a broken frontmatter
  sb.write(".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: the user's reviewer\n---\nUSER REVIEWER BODY\n", "home");
  sb.write(".claude/agents/broken.md", "---\nname: [oops\ndescription: never read\n---\nFix what is broken.\n", "home");
  // Claude Code plugins: alpha enabled, beta disabled in ~/.claude/settings.json
  const plugin = (name: string, agent: string, body: string) => {
    const dir = path.join(sb.home, "cc-cache", name, "1.0.0");
    fs.mkdirSync(path.join(dir, "agents"), { recursive: true });
    fs.mkdirSync(path.join(dir, ".claude-plugin"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".claude-plugin", "plugin.json"), JSON.stringify({ name }));
    fs.writeFileSync(path.join(dir, "agents", `${agent}.md`), `---\ndescription: ${agent} from ${name}\n---\n${body}\n`);
    return dir;
  };
  const alpha = plugin("alpha", "helper", "PLUGIN HELPER BODY");
  const beta = plugin("beta", "hidden", "DISABLED PLUGIN BODY");
  sb.write(".claude/plugins/installed_plugins.json", JSON.stringify({ plugins: { "alpha@m": [{ scope: "user", installPath: alpha }], "beta@m": [{ scope: "user", installPath: beta }] } }), "home");
  sb.write(
    ".claude/settings.json",
    JSON.stringify({
      enabledPlugins: { "beta@m": false },
      hooks: { SubagentStop: [{ hooks: [{ type: "command", command: `cat >> '${stopLog}'; echo >> '${stopLog}'` }] }] },
    }),
    "home",
  );
}, { timeoutMs: 90_000, hookTimeoutMs: 120_000 });

const parents = () => fake.requests.filter(isParent);
const children = (marker: string) => fake.requests.filter((r) => !isParent(r) && systemOf(r).includes(marker));

describe("sub-agents through run", () => {
  it("the run ends normally after the parent starts its agents", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("parent done");
    expect(parents()).toHaveLength(PARENT_CALLS.length + 1);
  });

  it("the parent's system prompt lists the agents once (narrowest copy bare, the built-in last); the tools array has one agent tool and never changes", () => {
    const sys = systemOf(parents()[0]!);
    expect(sys).toContain("- lint: lint the code");
    const block = /<available_agents>\n([\s\S]*?)\n<\/available_agents>/.exec(sys)?.[1] ?? "";
    const lines = block.split("\n").filter((l) => l.startsWith("- "));
    expect(lines.map((l) => l.replace(/:[^:]*$/, ""))).toEqual(["- reader", "- repo:reviewer", "- docs", "- pirate", "- broken", "- user:reviewer", "- alpha:helper", "- general-purpose"]);
    expect(sys).not.toContain("boss");
    expect(sys).not.toContain("hidden");
    const first = JSON.stringify(parents()[0]!.body.tools);
    expect(toolNames(parents()[0]!).filter((n) => n === "agent")).toHaveLength(1);
    for (const r of parents()) expect(JSON.stringify(r.body.tools)).toBe(first);
  });

  it("a repo agent that allows only Read: its child gets the body as system prompt and only the read tool", () => {
    const reqs = children("READER AGENT BODY");
    expect(reqs).toHaveLength(2);
    for (const r of reqs) {
      expect(systemOf(r).startsWith("READER AGENT BODY")).toBe(true);
      expect(systemOf(r)).not.toContain("You are oceancode");
      expect(systemOf(r)).not.toContain("<available_agents>");
      expect(systemOf(r)).not.toContain("<available_skills>");
      expect(toolNames(r)).toEqual(["read"]);
    }
    expect(firstUserText(reqs[0]!)).toContain("Read notes.txt");
    expect(textOf(resultOf(reqs[1]!, "toolu_child_read"))).toContain("first line of notes");
    // a tool the agent does not allow is not there for the child: refused as unknown, never run
    const bash = resultOf(reqs[1]!, "toolu_child_bash");
    expect(bash?.is_error).toBe(true);
    expect(textOf(bash)).toBe("unknown tool 'bash'; available: read");
  });

  it("the child's final text is the parent's tool_result", () => {
    const r = resultOf(parents()[1]!, "toolu_reader");
    expect(r?.is_error).toBeFalsy();
    expect(textOf(r)).toBe("READER FINAL: saw the notes");
  });

  it("a user/repo collision resolves the bare name to the narrowest (repo) copy", () => {
    expect(textOf(resultOf(parents()[2]!, "toolu_review"))).toBe("REVIEWED BY THE REPO REVIEWER");
    expect(children("USER REVIEWER BODY")).toHaveLength(0);
  });

  it("general-purpose works with no file: every built-in tool, never agent, skill or MCP tools", () => {
    expect(textOf(resultOf(parents()[3]!, "toolu_gp"))).toBe("GENERAL DONE: Do the general task.");
    const gp = fake.requests.find((r) => !isParent(r) && firstUserText(r) === "Do the general task.")!;
    const names = toolNames(gp);
    expect(names).toEqual(expect.arrayContaining(["read", "bash", "edit", "write", "grep", "glob", "ls"]));
    expect(names).not.toContain("agent");
    expect(names).not.toContain("skill");
  });

  it("an enabled plugin's agent runs as <plugin>:<name>", () => {
    expect(textOf(resultOf(parents()[4]!, "toolu_plugin"))).toBe("HELPED BY THE PLUGIN");
  });

  it("an unknown subagent_type is an error result listing the available names", () => {
    const r = resultOf(parents()[5]!, "toolu_unknown");
    expect(r?.is_error).toBe(true);
    expect(textOf(r)).toMatch(/^no agent named 'nope'; available: reader, repo:reviewer, docs, pirate, broken, user:reviewer, alpha:helper, general-purpose$/);
  });

  it("a disabled plugin's agent is absent", () => {
    const r = resultOf(parents()[6]!, "toolu_hidden");
    expect(r?.is_error).toBe(true);
    expect(textOf(r)).toContain("no agent named 'hidden'");
    expect(children("DISABLED PLUGIN BODY")).toHaveLength(0);
  });

  it("a broken frontmatter loads under its file name with one warning naming the file", () => {
    const warnings = result.stderr.split("\n").filter((l) => l.includes("agents/broken.md"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not valid YAML.*loaded as 'broken'/);
  });

  it("SubagentStop fires once per child (and Stop hooks are not run for children)", () => {
    const events = fs
      .readFileSync(stopLog, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { hook_event_name: string; session_id: string });
    expect(events.map((e) => e.hook_event_name)).toEqual(Array(4).fill("SubagentStop"));
    expect(new Set(events.map((e) => e.session_id)).size).toBe(4);
  });

  it("each child's transcript is in the ledger, in a folder under its parent's", () => {
    const parentId = sessionOf(result.stderr)!;
    expect(parentId).toBeTruthy();
    const parentDir = findDirs(sb.home, parentId)[0]!;
    expect(parentDir).toBeTruthy();
    const kids = fs.readdirSync(path.join(parentDir, "subagents"));
    expect(kids).toHaveLength(4);
    const transcripts = kids.map((k) => fs.readFileSync(path.join(parentDir, "subagents", k, "transcript", "turn-0001.md"), "utf8"));
    expect(transcripts.some((t) => t.includes("READER FINAL: saw the notes"))).toBe(true);
    // the parent's own folder holds only its own sessions' files at the top
    expect(fs.readdirSync(path.dirname(parentDir))).not.toContain(kids[0]);
  });

  it("oceancode ledger path names a child's nested folder in a later process (the database knows its parent)", async () => {
    const parentDir = findDirs(sb.home, sessionOf(result.stderr)!)[0]!;
    const kid = fs.readdirSync(path.join(parentDir, "subagents"))[0]!;
    const r = await runCliAsync(["ledger", "path", kid], { cwd: sb.project, env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(path.join(parentDir, "subagents", kid));
  });

  it("inspect has a row per agent: stable id, tier, file, qualified name; the built-in; no disabled plugin", async () => {
    const r = await runCliAsync(["inspect", "--json"], { cwd: sb.project, env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as Array<{ kind: string; id: string; layer: string; state: string; value: string; source: string }>).filter((x) => x.kind === "agent");
    expect(rows.map((x) => `${x.id} ${x.layer} ${x.state} ${x.value}`)).toEqual([
      "repo.claude_code:reader repo active reader",
      "repo.claude_code:reviewer repo active repo:reviewer",
      "repo.open_code:boss repo active boss",
      "repo.open_code:docs repo active docs",
      "repo.grok_build:pirate repo active pirate",
      "user.claude_code:broken user active broken",
      "user.claude_code:reviewer user shadowed user:reviewer",
      "plugin.claude_code:helper plugin:alpha active alpha:helper",
      "bundled.ocean_code:general-purpose bundled active general-purpose",
    ]);
    expect(rows.find((x) => x.id === "repo.claude_code:reader")?.source).toBe(`${sb.project}/.claude/agents/reader.md`);
    expect((rows.find((x) => x.id === "repo.open_code:boss") as { reason?: string } | undefined)?.reason).toMatch(/not a sub-agent/);
  });
});
