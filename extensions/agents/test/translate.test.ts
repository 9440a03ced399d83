/** Agent files of every ecosystem translated into one shape; tool selections and model aliases resolved. */
import { describe, expect, it } from "vitest";
import { translate, toolList } from "../frontmatter.js";
import { childModel as childModelWith, childTools } from "../resolve.js";
import { bundledAliases } from "./manifest-aliases.js";

const ALIASES = bundledAliases();
const childModel = (spec: string | undefined, parent: string) => childModelWith(spec, parent, ALIASES);

const F = "/p/.claude/agents/x.md";

describe("translate: Claude Code / oceancode / Grok agent files", () => {
  it("name, description, body as prompt, a comma list of tools, a model alias", () => {
    const a = translate("claude", "---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, Bash(git diff:*)\nmodel: sonnet\n---\n\nYou review code.\n\n", "x", F);
    expect(a).toEqual({ name: "code-reviewer", description: "Reviews code", prompt: "You review code.", tools: { mode: "allow", names: ["Read", "Grep", "Bash(git diff:*)"] }, model: "sonnet", invocable: true });
  });

  it("a YAML list of tools; no tools key means all tools; '*' means all", () => {
    expect(translate("claude", "---\ntools:\n  - Read\n  - Glob\n---\nB", "x", F).tools).toEqual({ mode: "allow", names: ["Read", "Glob"] });
    expect(translate("claude", "---\nname: a\n---\nB", "x", F).tools).toEqual({ mode: "all" });
    expect(translate("oceancode", "---\ntools: '*'\n---\nB", "x", F).tools).toEqual({ mode: "all" });
  });

  it("no frontmatter: the file name and the first body line", () => {
    expect(translate("grok", "# Pirate\nTalk like a pirate.\n", "pirate", F)).toMatchObject({ name: "pirate", description: "Pirate", prompt: "# Pirate\nTalk like a pirate.", tools: { mode: "all" } });
  });

  it("broken frontmatter: one warning naming the file; loads under the file name", () => {
    const a = translate("claude", "---\nname: [oops\n---\nFix it.\n", "broken", F);
    expect(a.name).toBe("broken");
    expect(a.description).toBe("Fix it.");
    expect(a.warning).toMatch(/^\/p\/\.claude\/agents\/x\.md: the frontmatter is not valid YAML .*; loaded as 'broken'$/);
    expect(translate("claude", "---\nname: a\nno close\n", "f", F).warning).toContain("no closing ---");
    expect(translate("claude", "---\n- a\n- b\n---\nx", "f", F).warning).toContain("not a YAML mapping");
  });

  it("an invalid name falls back to the file name, with a warning", () => {
    const a = translate("claude", "---\nname: ../evil\n---\nB", "good", F);
    expect(a.name).toBe("good");
    expect(a.warning).toContain("not a valid agent name");
  });

  it("tools of a wrong type: a warning, all tools", () => {
    const a = translate("claude", "---\ntools: 3\n---\nB", "f", F);
    expect(a.tools).toEqual({ mode: "all" });
    expect(a.warning).toContain("'tools'");
  });

  it("toolList keeps a pattern in parentheses as one name", () => {
    expect(toolList("Read Grep, Bash(npm run *)")).toEqual(["Read", "Grep", "Bash(npm run *)"]);
  });
});

describe("translate: OpenCode agent files", () => {
  it("the file name is the name; tools as a map of tool -> bool turns tools off", () => {
    const a = translate("opencode", "---\nname: ignored\ndescription: Writes docs\nmode: subagent\nmodel: anthropic/claude-haiku-4-5\ntools:\n  bash: false\n  write: false\n  read: true\n---\nDOCS\n", "docs", F);
    expect(a).toMatchObject({ name: "docs", description: "Writes docs", tools: { mode: "deny", names: ["bash", "write"] }, model: "anthropic/claude-haiku-4-5", invocable: true });
  });

  it("mode: primary and disable: true are not sub-agents", () => {
    expect(translate("opencode", "---\nmode: primary\n---\nB", "p", F).invocable).toBe(false);
    expect(translate("opencode", "---\ndisable: true\n---\nB", "p", F).invocable).toBe(false);
    expect(translate("opencode", "---\nmode: all\n---\nB", "p", F).invocable).toBe(true);
    // only OpenCode knows mode
    expect(translate("claude", "---\nmode: primary\n---\nB", "p", F).invocable).toBe(true);
  });
});

const REG = [
  { name: "bash", claudeName: "Bash" },
  { name: "read", claudeName: "Read" },
  { name: "edit", claudeName: "Edit" },
  { name: "write", claudeName: "Write" },
  { name: "ls", claudeName: "LS" },
  { name: "job_output", claudeName: "BashOutput" },
  { name: "skill", claudeName: "Skill" },
  { name: "agent", claudeName: "Task" },
  { name: "mcp__srv__echo" },
];

describe("childTools: the child's allow-list", () => {
  it("all: every tool but agent, skill and MCP tools", () => {
    expect(childTools({ mode: "all" }, REG)).toEqual({ tools: ["bash", "read", "edit", "write", "ls", "job_output"], unknown: [] });
  });

  it("allow: Claude Code names, our names, aliases and patterns; Task and unknown names never add a tool", () => {
    expect(childTools({ mode: "allow", names: ["Read", "bash(git *)", "MultiEdit", "Task", "WebSearch"] }, REG)).toEqual({ tools: ["bash", "read", "edit"], unknown: ["WebSearch"] });
    expect(childTools({ mode: "allow", names: ["list", "BashOutput"] }, REG).tools).toEqual(["ls", "job_output"]);
    expect(childTools({ mode: "allow", names: ["mcp__*", "skill"] }, REG).tools).toEqual([]);
  });

  it("deny (OpenCode): every tool the child may have but these", () => {
    expect(childTools({ mode: "deny", names: ["bash", "write"] }, REG).tools).toEqual(["read", "edit", "ls", "job_output"]);
    expect(childTools({ mode: "deny", names: ["*"] }, REG).tools).toEqual([]);
  });
});

describe("childModel", () => {
  it("inherit or absent: the parent's model", () => {
    expect(childModel(undefined, "anthropic/claude-sonnet-4-5")).toBe("anthropic/claude-sonnet-4-5");
    expect(childModel("inherit", "openai/gpt-5")).toBe("openai/gpt-5");
  });
  it("Claude Code aliases on an anthropic parent; on another provider the parent's model", () => {
    expect(childModel("haiku", "anthropic/claude-sonnet-4-5")).toBe("anthropic/claude-haiku-4-5");
    expect(childModel("opus", "anthropic/claude-sonnet-4-5")).toBe("anthropic/claude-opus-4-8");
    expect(childModel("sonnet", "openai/gpt-5")).toBe("openai/gpt-5");
  });
  it("a full id as written; a bare id on the parent's provider", () => {
    expect(childModel("openai/gpt-5", "anthropic/claude-sonnet-4-5")).toBe("openai/gpt-5");
    expect(childModel("claude-haiku-4-5-20251001", "anthropic/claude-sonnet-4-5")).toBe("anthropic/claude-haiku-4-5-20251001");
  });
});
