/**
 * The enable switches reach hooks and rules, end to end through the compiled CLI `run` against the fake
 * Anthropic server: the project's master switch (`oceancode skill everything off`) holds every hook source
 * and leaves plugin rules out of the first user message (a CLAUDE.md stays); a plugin disabled from a
 * shell between two steps of a running session no longer runs its hooks at the next step.
 * Fixture: a user-tier PreToolUse hook, an oceancode-store plugin `packa` (enabled, trusted) with a
 * PostToolUse hook and a rule, and a project CLAUDE.md.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { firstUserText } from "../../agents/test/helpers.js";
import { lines } from "./fixtures.js";

let fake: FakeAnthropicServer;
let sb: Sandbox;
let preLog: string;
let postLog: string;
let plugDir: string;

const cli = (args: string[]) => runCli(["--dir", sb.project, ...args], { cwd: sb.project, env: sb.env });
const run = async () => {
  const r = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "go"], {
    cwd: sb.project,
    env: anthropicEnv(sb, fake.url),
    timeoutMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return r;
};
const bash = (id: string) => ({ text: "running", toolCalls: [{ id, name: "bash", input: { command: "echo hi" } }] });
const installed = (enabled: boolean) =>
  sb.write(".oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "packa", path: plugDir, enabled, trusted: true }] }), "home");
const listJson = () => JSON.parse(cli(["hooks", "list", "--json"]).stdout) as { sources: Array<{ path: string; tier: string; plugin?: string; status: string }> };
const toolUseIds = (file: string) => lines(file).map((l) => (JSON.parse(l) as { tool_use_id?: string }).tool_use_id);
const firstText = (req: AnthropicRecorded | undefined) => (req ? firstUserText(req) : "");

beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-hooks-everything-");
  preLog = path.join(sb.home, "pre.jsonl");
  postLog = path.join(sb.home, "post.jsonl");
  sb.write(
    ".oceancode/settings.json",
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `cat >> '${preLog}'; echo >> '${preLog}'` }] }] } }),
    "home",
  );
  plugDir = path.join(sb.home, "plugins-src", "packa");
  sb.write(
    "plugins-src/packa/hooks/hooks.json",
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `cat >> '${postLog}'; echo >> '${postLog}'` }] }] } }),
    "home",
  );
  sb.write("plugins-src/packa/rules/packa.md", "PLUGIN RULE BODY: always say packa.\n", "home");
  sb.write("CLAUDE.md", "PROJECT CLAUDE BODY\n");
}, 30_000);

beforeEach(() => {
  fake.reset();
  installed(true);
  fs.rmSync(path.join(sb.home, ".oceancode", "trust.json"), { force: true });
  for (const f of [preLog, postLog]) fs.rmSync(f, { force: true });
});

afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("everything off", () => {
  it("baseline (on): the user PreToolUse and the plugin PostToolUse run; the plugin rule and CLAUDE.md are in the first message", async () => {
    fake.enqueue(bash("toolu_1"), { text: "done" });
    await run();
    expect(toolUseIds(preLog)).toEqual(["toolu_1"]);
    expect(toolUseIds(postLog)).toEqual(["toolu_1"]);
    expect(firstText(fake.requests[0])).toContain("PLUGIN RULE BODY");
    expect(firstText(fake.requests[0])).toContain("PROJECT CLAUDE BODY");
  }, 90_000);

  it("`skill everything off` holds every hook source (hooks list says why) and leaves plugin rules out; CLAUDE.md stays", async () => {
    const off = cli(["skill", "everything", "off"]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain("everything off");
    expect(cli(["skill", "everything", "status"]).stdout).toContain("everything off");
    const j = listJson();
    expect(j.sources.find((s) => s.tier === "user")?.status).toBe("held: everything off");
    expect(j.sources.find((s) => s.plugin === "packa")?.status).toBe("held: everything off");
    fake.enqueue(bash("toolu_1"), { text: "done" });
    await run();
    expect(lines(preLog)).toEqual([]);
    expect(lines(postLog)).toEqual([]);
    expect(firstText(fake.requests[0])).not.toContain("PLUGIN RULE BODY");
    expect(firstText(fake.requests[0])).toContain("PROJECT CLAUDE BODY");
    // on again: exactly the per-item state there was
    expect(cli(["skill", "everything", "on"]).code).toBe(0);
    expect(listJson().sources.find((s) => s.tier === "user")?.status).toBe("loaded");
  }, 90_000);

  it("flipped from a shell between steps: the next step's hooks are held", async () => {
    let flipped: { code: number | null; stderr: string } | undefined;
    fake.respond(() => {
      if (fake.requests.length === 1) return bash("toolu_1");
      if (fake.requests.length === 2) {
        flipped = cli(["skill", "everything", "off"]);
        return bash("toolu_2");
      }
      return { text: "done" };
    });
    await run();
    expect(flipped?.code, flipped?.stderr).toBe(0);
    expect(toolUseIds(preLog)).toEqual(["toolu_1"]);
    expect(toolUseIds(postLog)).toEqual(["toolu_1"]);
  }, 90_000);
});

describe("a plugin toggled while a session runs", () => {
  it("`plugin disable` between step 1 and step 2: its PostToolUse runs at step 1, not at step 2", async () => {
    let toggled: { code: number | null; stderr: string } | undefined;
    fake.respond(() => {
      if (fake.requests.length === 1) return bash("toolu_1");
      if (fake.requests.length === 2) {
        // runs in this process while the session waits for the reply: a shell toggle mid-run
        toggled = cli(["plugin", "disable", "packa"]);
        return bash("toolu_2");
      }
      return { text: "done" };
    });
    await run();
    expect(toggled?.code, toggled?.stderr).toBe(0);
    expect(toolUseIds(postLog)).toEqual(["toolu_1"]);
    // the user-tier hook is not the plugin's: it runs at both steps
    expect(toolUseIds(preLog)).toEqual(["toolu_1", "toolu_2"]);
    expect(listJson().sources.find((s) => s.plugin === "packa")?.status).toBe("held: disabled plugin");
  }, 90_000);

  it("`plugin enable` between steps: a plugin that started disabled runs its hook from the next step", async () => {
    installed(false);
    let toggled: { code: number | null; stderr: string } | undefined;
    fake.respond(() => {
      if (fake.requests.length === 1) return bash("toolu_1");
      if (fake.requests.length === 2) {
        toggled = cli(["plugin", "enable", "packa"]);
        return bash("toolu_2");
      }
      return { text: "done" };
    });
    await run();
    expect(toggled?.code, toggled?.stderr).toBe(0);
    expect(toolUseIds(postLog)).toEqual(["toolu_2"]);
    expect(firstText(fake.requests[0])).not.toContain("PLUGIN RULE BODY");
  }, 90_000);
});
