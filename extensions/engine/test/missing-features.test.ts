/**
 * A model the catalogue says takes no tools (`tools: false` in its manifest entry) is asked without them,
 * and the run says so once, through the compiled CLI against the fake Anthropic server. The entry comes
 * from a user-tier extension's manifest, the way a team lists a model of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

let fake: FakeAnthropicServer;
let sb: Sandbox;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-missing-features-");
  sb.write(".oceancode/extensions/team-models/manifest.json", JSON.stringify({ id: "team-models", version: "1.0.0", kernel: "^0.1.0", main: "index.js", contributes: { models: [{ id: "anthropic/claude-team-text", name: "claude-sonnet-4-6", contextWindow: 200000, maxOutputTokens: 8192, price: { input: 3, output: 15 }, tools: false }] } }), "home");
  sb.write(".oceancode/extensions/team-models/index.js", "export default { activate() {} };\n", "home");
});
afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("a model without tools", () => {
  it("is offered no tools and the run says so once; another model still gets them", async () => {
    fake.enqueue({ text: "first" }, { text: "second" });
    const env = { ...sb.env, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: fake.url };
    const r = await runCliAsync(["run", "-m", "anthropic/claude-team-text", "hi"], { cwd: sb.project, env, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("first");
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.body.tools ?? []).toEqual([]);
    expect(fake.requests[0]!.body.model).toBe("claude-sonnet-4-6");
    expect(r.stderr.split("claude-team-text takes no tools")).toHaveLength(2);
    const other = await runCliAsync(["run", "-m", "anthropic/claude-sonnet-4-6", "hi"], { cwd: sb.project, env, timeoutMs: 30_000 });
    expect(other.code, other.stderr).toBe(0);
    expect((fake.requests[1]!.body.tools ?? []).length).toBeGreaterThan(0);
    expect(other.stderr).not.toContain("takes no tools");
  }, 60_000);
});
