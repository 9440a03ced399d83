/**
 * The enable fold end to end: the compiled CLI `skill` command writes ~/.oceancode/skill-state.json and
 * trust.json, and `run` against the fake Anthropic server sends only what is enabled. Fixture: a local
 * `tdd`, a `review` at the repo and user tiers (a shared bare name), a user `wrangler`, and an oceancode
 * store plugin installed disabled whose skills dir holds `plugskill`.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { systemOf, startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

const listed = (req: AnthropicRecorded): string[] =>
  (/<available_skills>\n([\s\S]*?)\n<\/available_skills>/.exec(systemOf(req))?.[1] ?? "")
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2).split(": ")[0]!);
const toolsOf = (req: AnthropicRecorded) => JSON.stringify(req.body.tools);

let fake: FakeAnthropicServer;
let sb: Sandbox;
let baseline: AnthropicRecorded;

const cli = (args: string[]) => runCli(args, { cwd: sb.project, env: sb.env });
const run = async (prompt = "hello") => {
  const r = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", prompt], {
    cwd: sb.project,
    env: anthropicEnv(sb, fake.url),
    timeoutMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return r;
};
const setConfig = (skills: object | undefined) => {
  const f = path.join(sb.project, ".oceancode", "oceancode.json");
  if (skills === undefined) fs.rmSync(f, { force: true });
  else fs.writeFileSync(f, JSON.stringify({ skills }));
};
const clearState = () => {
  fs.rmSync(path.join(sb.home, ".oceancode", "skill-state.json"), { force: true });
  fs.rmSync(path.join(sb.home, ".oceancode", "trust.json"), { force: true });
};

beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-skills-enable-");
  sb.write(".oceancode/skills/tdd/SKILL.md", "---\ndescription: test first\n---\nWrite the failing test first.\n");
  sb.write(".claude/skills/review/SKILL.md", "---\ndescription: the repo's review rules\n---\nREPO REVIEW\n");
  sb.write(".claude/skills/review/SKILL.md", "---\ndescription: the user's review checklist\n---\nUSER REVIEW\n", "home");
  sb.write(".oceancode/skills/wrangler/SKILL.md", "---\ndescription: wrangle data\n---\nWRANGLE\n", "home");
  const plug = path.join(sb.home, "plugin-src", "offpack");
  sb.write("plugin-src/offpack/skills/plugskill/SKILL.md", "---\ndescription: from a disabled plugin\n---\nPLUG\n", "home");
  sb.write(".oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "offpack", path: plug, enabled: false, trusted: true }] }), "home");
  fake.enqueue({ text: "baseline" });
  await run();
  baseline = fake.requests[0]!;
}, 90_000);

beforeEach(() => {
  fake.reset();
  clearState();
  setConfig(undefined);
});

afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("skill enable state through run", () => {
  it("baseline: every enabled skill is listed; the disabled plugin's skill is not", () => {
    expect(listed(baseline)).toEqual(["tdd", "repo:review", "wrangler", "user:review"]);
    expect(systemOf(baseline)).not.toContain("plugskill");
  });

  it("a user-disabled skill is absent from the first request, the copy left keeps the bare name, and the tools array is identical", async () => {
    const d = cli(["skill", "disable", "user.claude_code:review"]);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(sb.home, ".oceancode", "skill-state.json"), "utf8"))).toEqual({ disabled: ["user.claude_code:review"] });
    fake.enqueue({ text: "one less" });
    await run();
    expect(listed(fake.requests[0]!)).toEqual(["tdd", "review", "wrangler"]);
    expect(systemOf(fake.requests[0]!)).not.toContain("the user's review checklist");
    expect(toolsOf(fake.requests[0]!)).toBe(toolsOf(baseline));
  }, 90_000);

  it("a project allowlist keeps only what it names", async () => {
    setConfig({ mode: "allowlist", enabled: ["tdd", "repo.claude_code:review"] });
    fake.enqueue({ text: "allowlisted" });
    await run();
    expect(listed(fake.requests[0]!)).toEqual(["tdd", "review"]);
    const rows = JSON.parse(cli(["skill", "list", "--json"]).stdout) as Array<{ id: string; enabled: boolean; reason?: string }>;
    expect(rows.find((r) => r.id === "user.ocean_code:wrangler")).toMatchObject({ enabled: false, reason: "not in allowlist" });
  }, 90_000);

  it("an explicit enable beats the project's disabled (recorded for this project in trust.json)", async () => {
    setConfig({ disabled: ["wrangler", "tdd"] });
    const e = cli(["skill", "enable", "wrangler"]);
    expect(e.code, e.stderr).toBe(0);
    const trust = JSON.parse(fs.readFileSync(path.join(sb.home, ".oceancode", "trust.json"), "utf8")) as Record<string, { enabled_skills: string[] }>;
    expect(trust[path.resolve(sb.project)]?.enabled_skills).toEqual(["user.ocean_code:wrangler"]);
    fake.enqueue({ text: "explicit" });
    await run();
    expect(listed(fake.requests[0]!)).toEqual(["repo:review", "wrangler", "user:review"]);
  }, 90_000);

  it("skill list --json: id, qualified name, enabled, and a reason when off (a disabled plugin's skill is disabled (plugin))", () => {
    cli(["skill", "disable", "tdd"]);
    const r = cli(["skill", "list", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ id: string; name: string; enabled: boolean; reason?: string }>;
    expect(rows.map((x) => [x.id, x.name, x.enabled, x.reason ?? ""])).toEqual([
      ["local.ocean_code:tdd", "tdd", false, "disabled (user)"],
      ["repo.claude_code:review", "repo:review", true, ""],
      ["user.ocean_code:wrangler", "wrangler", true, ""],
      ["user.claude_code:review", "user:review", true, ""],
      ["plugin.ocean_code:plugskill", "offpack:plugskill", false, "disabled (plugin)"],
    ]);
    const table = cli(["skill", "list"]).stdout.split("\n");
    expect(table[0]).toMatch(/^local\.ocean_code:tdd\s+local\s+trusted\s+disabled \(user\)\s+test first$/);
    expect(table[1]).toMatch(/^repo\.claude_code:review\s+repo\s+untrusted\s+enabled\s+/);
  });

  it("a bare name two skills share is refused with the candidate ids, and nothing is written", () => {
    const r = cli(["skill", "disable", "review"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("repo.claude_code:review");
    expect(r.stderr).toContain("user.claude_code:review");
    expect(fs.existsSync(path.join(sb.home, ".oceancode", "skill-state.json"))).toBe(false);
  });

  it("disable-all, then enabling one: only that one is listed; enable-all clears the user tier", async () => {
    expect(cli(["skill", "disable-all"]).code).toBe(0);
    expect(cli(["skill", "enable", "tdd"]).code).toBe(0);
    fake.enqueue({ text: "one" });
    await run();
    expect(listed(fake.requests[0]!)).toEqual(["tdd"]);
    expect(cli(["skill", "enable-all"]).code).toBe(0);
    expect((JSON.parse(cli(["skill", "list", "--json"]).stdout) as Array<{ enabled: boolean }>).filter((x) => x.enabled)).toHaveLength(4);
  }, 90_000);
});

describe("a toggle from a shell lands on the next step of a running session", () => {
  it("the second request no longer lists the skill disabled between step 1 and step 2", async () => {
    let toggled: { code: number | null; stderr: string } | undefined;
    fake.respond(() => {
      if (fake.requests.length === 1) {
        // runs in this process while the session waits for the reply: a shell toggle mid-turn
        toggled = cli(["skill", "disable", "wrangler"]);
        return { text: "loading", toolCalls: [{ id: "toolu_1", name: "skill", input: { skill: "tdd" } }] };
      }
      return { text: "done" };
    });
    await run("go");
    expect(toggled?.code, toggled?.stderr).toBe(0);
    expect(fake.requests).toHaveLength(2);
    expect(listed(fake.requests[0]!)).toContain("wrangler");
    expect(listed(fake.requests[1]!)).not.toContain("wrangler");
    expect(listed(fake.requests[1]!)).toContain("tdd");
    expect(toolsOf(fake.requests[1]!)).toBe(toolsOf(fake.requests[0]!));
  }, 90_000);

  it("an edit to the project's skills policy between steps lands the same way", async () => {
    setConfig({ disabled: ["wrangler"] });
    fake.respond(() => {
      if (fake.requests.length === 1) {
        setConfig({ mode: "allowlist", enabled: ["tdd"] });
        return { text: "loading", toolCalls: [{ id: "toolu_1", name: "skill", input: { skill: "tdd" } }] };
      }
      return { text: "done" };
    });
    await run("go");
    expect(listed(fake.requests[0]!)).toEqual(["tdd", "repo:review", "user:review"]);
    expect(listed(fake.requests[1]!)).toEqual(["tdd"]);
  }, 90_000);
});
