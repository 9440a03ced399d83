/**
 * Rules and memory end to end: the compiled CLI `run` against the fake Anthropic server (the real SDK),
 * with a fixture HOME and a git project whose working directory is two levels down. Checks where the
 * memory goes (the first user message, never the system prompt), the order of the files, a disabled plugin's rules left out, a scoped rule
 * with and without a matching file, `--continue` not repeating the block, and `inspect --json`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

type Block = { type: string; text?: string };
const MEMORY = "<system-reminder>\n# Memory (instruction files)";

const userTexts = (req: AnthropicRecorded, index: number): string[] => {
  const users = (req.body.messages ?? []).filter((m) => m.role === "user");
  const c = users[index]?.content;
  return typeof c === "string" ? [c] : ((c ?? []) as Block[]).filter((b) => b.type === "text").map((b) => b.text ?? "");
};
const allText = (req: AnthropicRecorded): string => (req.body.messages ?? []).map((m) => JSON.stringify(m.content)).join("\n");

let fake: FakeAnthropicServer;
let sb: Sandbox;
let cwd: string;
const runs: Array<{ code: number | null; stderr: string; req?: AnthropicRecorded }> = [];

async function run(args: string[]): Promise<{ code: number | null; stderr: string; req?: AnthropicRecorded }> {
  const before = fake.requests.length;
  const r = await runCliAsync(["run", "--model", "anthropic/claude-sonnet-4-5", ...args], {
    cwd,
    env: anthropicEnv(sb, fake.url),
    timeoutMs: 60_000,
  });
  const out = { code: r.code, stderr: r.stderr, req: fake.requests[before] };
  runs.push(out);
  return out;
}

beforeAll(async () => {
  fake = await startFakeAnthropic();
  fake.respond(() => ({ text: "done" }));
  sb = makeSandbox("oc-rules-");
  fs.mkdirSync(path.join(sb.project, ".git"), { recursive: true });
  cwd = path.join(sb.project, "pkg", "app");
  fs.mkdirSync(cwd, { recursive: true });
  sb.write(".claude/CLAUDE.md", "USER MEMORY: answer tersely.\n", "home");
  sb.write("notes/team.md", "TEAM NOTES from home\n", "home");
  // two plugins Claude Code installed; `off` is disabled in ~/.claude/settings.json
  const plugin = (name: string) => path.join(sb.home, ".claude/plugins/cache/mk", name, "1.0.0");
  sb.write(".claude/plugins/cache/mk/on/1.0.0/rules/p.md", "PLUGIN ON RULE\n", "home");
  sb.write(".claude/plugins/cache/mk/off/1.0.0/rules/p.md", "PLUGIN OFF RULE\n", "home");
  const installs = { plugins: Object.fromEntries(["on", "off"].map((n) => [`${n}@mk`, [{ scope: "user", installPath: plugin(n) }]])) };
  sb.write(".claude/plugins/installed_plugins.json", JSON.stringify(installs), "home");
  sb.write(".claude/settings.json", JSON.stringify({ enabledPlugins: { "off@mk": false } }), "home");
  sb.write("CLAUDE.md", "ROOT MEMORY. Style: @docs/style.md and @~/notes/team.md\n");
  sb.write("AGENTS.md", "ROOT AGENTS MIRROR (must not load)\n");
  sb.write("docs/style.md", "STYLE GUIDE: tabs.\n");
  sb.write("pkg/AGENTS.md", "PKG AGENTS MEMORY\n");
  sb.write("pkg/app/CLAUDE.local.md", "APP LOCAL MEMORY\n");
  sb.write("pkg/app/.claude/rules/python.md", "---\npaths: \"**/*.py\"\n---\nPYTHON RULE\n");
  sb.write("pkg/app/.claude/rules/general.md", "GENERAL RULE\n");
  sb.write("pkg/app/src/main.ts", "export {};\n");
}, 30_000);

afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("memory through run", () => {
  it("the first request's first user message carries the memory block after the prompt, files in order", async () => {
    const r = await run(["first prompt"]);
    expect(r.code, r.stderr).toBe(0);
    const texts = userTexts(r.req!, 0);
    expect(texts[0]).toBe("first prompt");
    const block = texts.find((t) => t.startsWith(MEMORY)) ?? "";
    // the checkout's CLAUDE.md is untrusted (no `trust repo on`): its @~/ import leaves a marker, not the file
    const order = ["USER MEMORY", "PLUGIN ON RULE", "ROOT MEMORY", "STYLE GUIDE", "[@~/notes/team.md not imported", "PKG AGENTS MEMORY", "APP LOCAL MEMORY", "GENERAL RULE"];
    const at = order.map((t) => block.indexOf(t));
    expect(at.every((i) => i > 0), block).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(block).toContain(`Contents of ${path.join(sb.project, "CLAUDE.md")} (repo instructions):`);
    expect(block).not.toContain("ROOT AGENTS MIRROR");
    expect(block).not.toContain("TEAM NOTES");
    expect(block).not.toContain("PYTHON RULE");
    expect(block).not.toContain("PLUGIN OFF RULE");
    expect(JSON.stringify(r.req!.body.system)).not.toContain("MEMORY");
  });

  it("--continue: the second prompt does not repeat the block (the first message still has it)", async () => {
    const r = await run(["--continue", "second prompt"]);
    expect(r.code, r.stderr).toBe(0);
    expect(allText(r.req!).split("# Memory (instruction files)").length - 1).toBe(1);
    const users = (r.req!.body.messages ?? []).filter((m) => m.role === "user");
    expect(JSON.stringify(users.at(-1)!.content)).toContain("second prompt");
    expect(JSON.stringify(users.at(-1)!.content)).not.toContain("Memory (instruction files)");
  });

  it("a new session after a Python file appears loads the scoped rule; the system prompt is byte-identical", async () => {
    sb.write("pkg/app/tools/gen.py", "print('x')\n");
    sb.write("CLAUDE.md", "A DIFFERENT ROOT MEMORY\n");
    const r = await run(["third prompt"]);
    expect(r.code, r.stderr).toBe(0);
    const block = userTexts(r.req!, 0).find((t) => t.startsWith(MEMORY)) ?? "";
    expect(block).toContain("PYTHON RULE");
    expect(block).toContain("A DIFFERENT ROOT MEMORY");
    expect(JSON.stringify(r.req!.body.system)).toBe(JSON.stringify(runs[0]!.req!.body.system));
  });

  it("with no memory at all, no block and still the same system prompt", async () => {
    for (const f of ["CLAUDE.md", "AGENTS.md", "pkg/AGENTS.md", "pkg/app/CLAUDE.local.md"]) fs.rmSync(path.join(sb.project, f));
    fs.rmSync(path.join(sb.project, "pkg/app/.claude"), { recursive: true });
    fs.rmSync(path.join(sb.home, ".claude/CLAUDE.md"));
    fs.renameSync(path.join(sb.home, ".claude/plugins/cache/mk/on/1.0.0/rules"), path.join(sb.home, ".claude/plugins/cache/mk/on/1.0.0/kept"));
    const r = await run(["fourth prompt"]);
    expect(r.code, r.stderr).toBe(0);
    expect(userTexts(r.req!, 0)).toEqual(["fourth prompt"]);
    expect(JSON.stringify(r.req!.body.system)).toBe(JSON.stringify(runs[0]!.req!.body.system));
  });
});

describe("a directory first touched by a tool", () => {
  it("brings its instruction files into that tool's result, once", async () => {
    sb.write("pkg/app/lib/CLAUDE.md", "LIB MEMORY: nested\n");
    sb.write("pkg/app/lib/util.ts", "export const u = 1;\n");
    const file = path.join(cwd, "lib", "util.ts");
    let i = 0;
    fake.respond(() => (i++ < 2 ? { text: "reading", toolCalls: [{ id: `toolu_${i}`, name: "read", input: { file_path: file } }] } : { text: "done" }));
    const r = await run(["--auto", "read lib/util.ts twice"]);
    fake.respond(() => ({ text: "done" }));
    expect(r.code, r.stderr).toBe(0);
    const last = fake.requests.at(-1)!;
    const sent = JSON.stringify(last.body.messages);
    expect(sent.split("LIB MEMORY: nested").length - 1).toBe(1);
    expect(sent).toContain("# Memory for a directory first touched this session");
    expect(JSON.stringify(last.body.system)).not.toContain("LIB MEMORY");
    fs.rmSync(path.join(cwd, "lib"), { recursive: true });
  });
});

describe("inspect --json", () => {
  it("one instruction row per file, with its state", () => {
    sb.write("CLAUDE.md", "ROOT @docs/style.md @/etc/hostname\n");
    sb.write("AGENTS.md", "MIRROR\n");
    fs.renameSync(path.join(sb.home, ".claude/plugins/cache/mk/on/1.0.0/kept"), path.join(sb.home, ".claude/plugins/cache/mk/on/1.0.0/rules"));
    sb.write("pkg/app/.claude/rules/rb.md", "---\npaths: \"**/*.rb\"\n---\nRUBY\n");
    const r = runCli(["inspect", "--json"], { cwd, env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as Array<{ kind: string; id: string; layer: string; state: string; source: string }>).filter((x) => x.kind === "instruction");
    expect(rows.map((x) => [x.id, x.layer, x.state])).toEqual([
      ["plugin:off:~/.claude/plugins/cache/mk/off/1.0.0/rules/p.md", "plugin:off", "disabled (plugin off)"],
      ["plugin:on:~/.claude/plugins/cache/mk/on/1.0.0/rules/p.md", "plugin:on", "active"],
      ["CLAUDE.md", "repo", "active"],
      ["docs/style.md", "repo", "imported by CLAUDE.md"],
      ["repo:/etc/hostname", "repo", "refused (the repository is not trusted (oceancode trust repo on): it imports only files inside the project)"],
      ["AGENTS.md", "repo", "shadowed by CLAUDE.md"],
      ["pkg/app/.claude/rules/rb.md", "repo", "scoped out (no match for **/*.rb)"],
    ]);
    expect(r.stderr).toContain(`${path.join(sb.project, "CLAUDE.md")}: import @/etc/hostname (/etc/hostname) not loaded`);
  });
});
