/**
 * A session sees what the plugin store says: `run` against the fake Anthropic server after installing two
 * plugins and disabling one. The enabled plugin's skill is offered as <plugin>:<name> and loads through
 * the `skill` tool; the disabled plugin's skill is not offered at all.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { systemOf, startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { plugin, pluginFiles, writeFiles } from "./fixtures.js";

type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown };

let fake: FakeAnthropicServer;
let sb: Sandbox;
let result: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  sb = makeSandbox("oc-plugins-run-");
  const root = path.dirname(sb.home);
  expect(plugin(sb, "install", writeFiles(path.join(root, "on"), pluginFiles("onplug", "1.0.0", "planning"))).code).toBe(0);
  expect(plugin(sb, "install", writeFiles(path.join(root, "off"), pluginFiles("offplug", "1.0.0", "hidden"))).code).toBe(0);
  expect(plugin(sb, "disable", "offplug").code).toBe(0);
  fake = await startFakeAnthropic();
  let i = 0;
  fake.respond(() => (i++ === 0 ? { text: "loading", toolCalls: [{ id: "toolu_p", name: "skill", input: { skill: "onplug:planning" } }] } : { text: "done" }));
  result = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "plan it"], {
    cwd: sb.project,
    env: anthropicEnv(sb, fake.url),
    timeoutMs: 60_000,
  });
}, 90_000);

afterAll(async () => {
  await fake?.close();
  sb.cleanup();
});

describe("plugins in a session", () => {
  it("the enabled plugin's skill is listed as onplug:planning and loads; the disabled plugin's is absent", () => {
    expect(result.code, result.stderr).toBe(0);
    const sys = systemOf(fake.requests[0]!);
    expect(sys).toContain("onplug:planning");
    expect(sys).not.toContain("offplug:");
    const second = fake.requests[1]!;
    const blocks = (second.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[])));
    const res = blocks.find((b) => b.type === "tool_result" && b.tool_use_id === "toolu_p");
    const text = typeof res?.content === "string" ? res.content : ((res?.content as Block[] | undefined) ?? []).map((c) => c.text ?? "").join("");
    expect(text).toContain("ONPLUG PLANNING BODY");
  });
});
