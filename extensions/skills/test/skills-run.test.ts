/**
 * Skills and commands end to end: the compiled CLI `run` against the fake Anthropic server (the real
 * SDK), with a fixture HOME and project holding skills at the local, repo and user tiers in three
 * ecosystems (.oceancode, .claude, .opencode), a name that collides across tiers, a broken frontmatter,
 * a skill hidden from the model and one for the model only. The scripted model calls the `skill` tool;
 * the test reads what each request carried.
 */
import { describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync } from "../../../test/kit/cli.js";
import { systemOf, startFakeAnthropic, type AnthropicRecorded, toolResultOf as resultOf, blockText as textOf } from "../../../test/kit/fakes/anthropic-server.js";
import { runOnceOnFake } from "../../../test/kit/file-fixtures.js";

const CALLS = [
  { id: "toolu_bare", input: { skill: "review", args: "src/a.ts \"two words\"" } },
  { id: "toolu_user", input: { skill: "user:review", args: "all of it" } },
  { id: "toolu_cmd", input: { skill: "deploy", args: "staging" } },
  { id: "toolu_hidden", input: { skill: "secret" } },
  { id: "toolu_id", input: { skill: "repo.open_code:deep", args: "twice" } },
];

const { fake, sb, result } = runOnceOnFake("oc-skills-", ["--auto", "--model", "anthropic/claude-sonnet-4-5", "use the skills"], (sb, fake) => {
  let i = 0;
  fake.respond(() => {
    const c = CALLS[i++];
    return c ? { text: `calling ${c.input.skill}`, toolCalls: [{ id: c.id, name: "skill", input: c.input }] } : { text: "all skills loaded" };
  });
  // user tier: Claude Code's ~/.claude and oceancode's own ~/.oceancode
  sb.write(".claude/skills/review/SKILL.md", "---\nname: review\ndescription: the user's review checklist\n---\nUSER REVIEW of $ARGUMENTS\n", "home");
  sb.write(".claude/skills/broken/SKILL.md", "---\nname: [oops\ndescription: never read\n---\nFix what is broken, carefully.\nSecond line.\n", "home");
  sb.write(".claude/skills/model-only/SKILL.md", "---\ndescription: background knowledge\nuser-invocable: false\n---\nModel only.\n", "home");
  sb.write(".oceancode/skills/secret/SKILL.md", "---\ndescription: typed by the user only\ndisable-model-invocation: true\n---\nSECRET BODY\n", "home");
  // repo tier (the project's .claude and .opencode; untrusted, but skills are inert data)
  sb.write(".claude/skills/review/SKILL.md", "---\ndescription: the repo's review rules\nallowed-tools: Read, Grep\n---\n\nREPO REVIEW first=$1 second=$2 dir=${CLAUDE_SKILL_DIR}\n");
  sb.write(".claude/commands/deploy.md", "---\ndescription: Deploy the app\nargument-hint: [env]\n---\nDeploy to $ARGUMENTS now.\n");
  sb.write(".opencode/command/deep.md", "Think deeply about the problem.\n");
  // local tier: the project's .oceancode (not tracked by git)
  sb.write(".oceancode/skills/tdd/SKILL.md", "---\nname: tdd\ndescription: test first\n---\nWrite the failing test first.\n");
});

describe("skills through run", () => {
  it("the run ends normally after the model loads the skills", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("all skills loaded");
    expect(fake.requests.length).toBe(CALLS.length + 1);
  });

  it("the first request lists every model-invocable skill and command once, in walk order (narrowest tier first), collisions qualified", () => {
    const sys = systemOf(fake.requests[0]!);
    const block = /<available_skills>\n([\s\S]*?)\n<\/available_skills>/.exec(sys)?.[1] ?? "";
    const lines = block.split("\n").filter((l) => l.startsWith("- "));
    expect(lines).toEqual([
      "- tdd: test first",
      "- repo:review: the repo's review rules",
      "- deploy [env]: Deploy the app (command)",
      "- deep: Think deeply about the problem. (command)",
      "- broken: Fix what is broken, carefully.",
      "- model-only: background knowledge",
      "- user:review: the user's review checklist",
    ]);
    expect(sys).not.toContain("secret");
    expect(sys.match(/<available_skills>/g)).toHaveLength(1);
  });

  it("the tools array has exactly one skill tool, and it is the same in every request", () => {
    const names = (req: AnthropicRecorded) => (req.body.tools ?? []).map((t) => String(t.name));
    expect(names(fake.requests[0]!).filter((n) => n === "skill")).toHaveLength(1);
    expect(names(fake.requests[0]!).some((n) => /^skill_/.test(n))).toBe(false);
    const first = JSON.stringify(fake.requests[0]!.body.tools);
    for (const r of fake.requests) expect(JSON.stringify(r.body.tools)).toBe(first);
    expect(systemOf(fake.requests.at(-1)!)).toBe(systemOf(fake.requests[0]!));
  });

  it("the bare name runs the narrowest copy with $1, $2 and ${CLAUDE_SKILL_DIR} expanded", () => {
    const r = resultOf(fake.requests[1]!, "toolu_bare");
    expect(r?.is_error).toBeFalsy();
    expect(textOf(r)).toContain(`REPO REVIEW first=src/a.ts second=two words dir=${sb.project}/.claude/skills/review`);
    expect(textOf(r)).not.toContain("USER REVIEW");
  });

  it("the qualified name reaches the wider copy, with $ARGUMENTS expanded", () => {
    expect(textOf(resultOf(fake.requests[2]!, "toolu_user"))).toContain("USER REVIEW of all of it");
  });

  it("a command loads through the same tool", () => {
    expect(textOf(resultOf(fake.requests[3]!, "toolu_cmd"))).toContain("Deploy to staging now.");
  });

  it("a skill with disable-model-invocation is not reachable by the model", () => {
    const r = resultOf(fake.requests[4]!, "toolu_hidden");
    expect(r?.is_error).toBe(true);
    expect(textOf(r)).toContain("no skill named 'secret'");
    expect(textOf(r)).not.toContain("SECRET BODY");
  });

  it("a stable id names an OpenCode command; arguments not placed are appended", () => {
    expect(textOf(resultOf(fake.requests[5]!, "toolu_id"))).toContain("Think deeply about the problem.\n\nARGUMENTS: twice");
  });

  it("a broken frontmatter loads under its directory name with one warning naming the file", () => {
    const warnings = result.stderr.split("\n").filter((l) => l.includes("broken/SKILL.md"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not valid YAML.*loaded as 'broken'/);
  });

  it("inspect has one row per skill and command: stable id, tier, file, qualified name, shadowed copies", async () => {
    const r = await runCliAsync(["inspect", "--json"], { cwd: sb.project, env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as Array<{ kind: string; id: string; layer: string; state: string; value: string; source: string }>).filter(
      (x) => x.kind === "skill" || x.kind === "command",
    );
    expect(rows.map((x) => `${x.kind} ${x.id} ${x.layer} ${x.state} ${x.value}`)).toEqual([
      "skill local.ocean_code:tdd local active tdd",
      "skill repo.claude_code:review repo active repo:review",
      "command repo.claude_code:deploy repo active deploy",
      "command repo.open_code:deep repo active deep",
      "skill user.ocean_code:secret user active secret",
      "skill user.claude_code:broken user active broken",
      "skill user.claude_code:model-only user active model-only",
      "skill user.claude_code:review user shadowed user:review",
    ]);
    expect(rows.find((x) => x.id === "user.claude_code:review")?.source).toBe(`${sb.home}/.claude/skills/review/SKILL.md`);
  });
});

describe("the tools array does not depend on the skills found", () => {
  it("a project and HOME with no skills send the same tools array and no <available_skills> block", async () => {
    const empty = makeSandbox("oc-skills-none-");
    const fake2 = await startFakeAnthropic();
    try {
      fake2.enqueue({ text: "nothing to load" });
      const r = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "hello"], {
        cwd: empty.project,
        env: { ...empty.env, ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake2.url, OC_RETRY_BASE_MS: "10" },
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.stringify(fake2.requests[0]!.body.tools)).toBe(JSON.stringify(fake.requests[0]!.body.tools));
      expect(systemOf(fake2.requests[0]!)).not.toContain("<available_skills>");
    } finally {
      await fake2.close();
      empty.cleanup();
    }
  }, 90_000);
});
