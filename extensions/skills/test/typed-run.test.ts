/**
 * Typed slash forms end to end: the compiled CLI `run` against the fake Anthropic server, with skills at
 * the local, repo and user tiers, a repo command, an oceancode-store plugin and a user-only skill. Each
 * typed prompt is one run; the test reads what the first request's user message carried and stderr.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

type Block = { type: string; text?: string };

/** Every text block of the first user message, joined. */
const userText = (req: AnthropicRecorded | undefined): string => {
  const m = (req?.body.messages ?? []).find((x) => x.role === "user");
  if (!m) return "";
  return typeof m.content === "string" ? m.content : (m.content as Block[]).map((b) => b.text ?? "").join("\n");
};

const PROMPTS = {
  bare: "/review src/a.ts",
  user: "/user:review all of it",
  command: "/deploy staging",
  plugin: "/acme:lint src",
  pluginBare: "/lint fast",
  secret: "/secret now",
  unknown: "/nosuch x",
  unknownPlugin: "/unknownplugin:x y",
  path: "/usr/bin/env --help",
  modelOnly: "/model-only please",
} as const;
type Key = keyof typeof PROMPTS;

let sb: Sandbox;
const runs = new Map<Key, { result: RunResult; fake: FakeAnthropicServer }>();

beforeAll(async () => {
  sb = makeSandbox("oc-typed-");
  sb.write(".claude/skills/review/SKILL.md", "---\nname: review\ndescription: the user's review checklist\n---\nUSER REVIEW of $ARGUMENTS\n", "home");
  sb.write(".claude/skills/model-only/SKILL.md", "---\ndescription: background knowledge\nuser-invocable: false\n---\nModel only.\n", "home");
  sb.write(".oceancode/skills/secret/SKILL.md", "---\ndescription: typed by the user only\ndisable-model-invocation: true\n---\nSECRET BODY $1\n", "home");
  sb.write(".claude/skills/review/SKILL.md", "---\ndescription: the repo's review rules\n---\nREPO REVIEW first=$1 dir=${CLAUDE_SKILL_DIR}\n");
  sb.write(".oceancode/skills/review/SKILL.md", "---\ndescription: local review\n---\nLOCAL REVIEW of $ARGUMENTS\n");
  sb.write(".claude/commands/deploy.md", "---\ndescription: Deploy the app\nargument-hint: [env]\n---\nDeploy to $ARGUMENTS now.\n");
  const pluginDir = path.join(sb.home, "plugins-src", "acme");
  sb.write("plugins-src/acme/skills/lint/SKILL.md", "---\ndescription: lint things\n---\nPLUGIN LINT $ARGUMENTS\n", "home");
  sb.write(".oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "acme", path: pluginDir, enabled: true }] }), "home");
  await Promise.all(
    (Object.keys(PROMPTS) as Key[]).map(async (k) => {
      const fake = await startFakeAnthropic();
      fake.respond(() => ({ text: "done" }));
      const result = await runCliAsync(["run", "--model", "anthropic/claude-haiku-4-5", PROMPTS[k]], {
        cwd: sb.project,
        env: anthropicEnv(sb, fake.url),
        timeoutMs: 60_000,
      });
      runs.set(k, { result, fake });
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([...runs.values()].map((r) => r.fake.close()));
  sb.cleanup();
});

const sent = (k: Key) => userText(runs.get(k)!.fake.requests[0]);
const stderr = (k: Key) => runs.get(k)!.result.stderr;

describe("typed /skill forms through run", () => {
  it("every run ends normally", () => {
    for (const [k, r] of runs) expect(r.result.code, `${k}: ${r.result.stderr}`).toBe(0);
  });

  it("a bare /review runs the narrowest copy (local) with its arguments, prefaced by one instruction line", () => {
    const t = sent("bare");
    expect(t).toMatch(/^The user ran the \/local:review skill \(file .*\.oceancode\/skills\/review\/SKILL\.md; base directory .*\)\. Follow these instructions:\n\nLOCAL REVIEW of src\/a\.ts$/);
    expect(stderr("bare")).not.toMatch(/sent as text|\/review/);
  });

  it("/user:review runs the user copy", () => {
    expect(sent("user")).toContain("USER REVIEW of all of it");
    expect(sent("user")).not.toContain("/user:review all of it");
  });

  it("/deploy staging runs a command", () => {
    expect(sent("command")).toContain("The user ran the /deploy command");
    expect(sent("command")).toContain("Deploy to staging now.");
  });

  it("/<plugin>:<name> and the bare name run an enabled oceancode-store plugin skill", () => {
    expect(sent("plugin")).toContain("The user ran the /acme:lint skill");
    expect(sent("plugin")).toContain("PLUGIN LINT src");
    expect(sent("pluginBare")).toContain("PLUGIN LINT fast");
  });

  it("a disable-model-invocation skill can be typed by the user", () => {
    expect(sent("secret")).toContain("SECRET BODY now");
  });

  it("an unknown /name or <plugin>: prefix is sent unchanged with one warning on stderr", () => {
    expect(sent("unknown")).toBe("/nosuch x");
    expect(stderr("unknown").match(/\/nosuch is not a skill or command; sent as text/g)?.length).toBe(1);
    expect(sent("unknownPlugin")).toBe("/unknownplugin:x y");
    expect(stderr("unknownPlugin")).toContain("no enabled plugin named 'unknownplugin'");
  });

  it("a user-invocable: false skill cannot be typed (sent as text, warned)", () => {
    expect(sent("modelOnly")).toBe("/model-only please");
    expect(stderr("modelOnly")).toContain("for the model only");
  });

  it("a path with a second slash is plain text: unchanged, no warning", () => {
    expect(sent("path")).toBe("/usr/bin/env --help");
    expect(stderr("path")).not.toMatch(/sent as text|usr/);
  });
});
