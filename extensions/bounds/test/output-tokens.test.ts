/**
 * OC_MAX_OUTPUT_TOKENS through the compiled CLI and the real Anthropic SDK against the fake server: the
 * request's max_tokens is the value clamped to the model's published maximum (claude-sonnet-4-5: 64,000)
 * in either direction, decimals floored; a value that is not a number of at least 1 is ignored with one
 * warning (never NaN or 0 on the wire). The helper itself is checked directly too.
 */
import { describe, expect, it } from "vitest";
import { anthropicEnv, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import type { FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { outputTokenCap } from "../../engine/options.js";
import { perTest } from "../../../test/kit/file-fixtures.js";

let sb: Sandbox | undefined;
let fake: FakeAnthropicServer | undefined;
const { makeSandbox, startFakeAnthropic } = perTest();

describe("OC_MAX_OUTPUT_TOKENS", () => {
  it("the helper: unset -> the maximum; above -> clamped; below -> honoured; decimals floored; junk, 0 and negatives ignored with a warning", () => {
    const warns: string[] = [];
    const cap = (v: string | undefined) => outputTokenCap(v, 64_000, (m) => warns.push(m));
    expect([cap(undefined), cap(""), cap("10000000"), cap("1000"), cap("2500.9"), cap("1")]).toEqual([64_000, 64_000, 64_000, 1000, 2500, 1]);
    expect(warns).toEqual([]);
    expect([cap("abc"), cap("0"), cap("-5"), cap("0.5"), cap("Infinity")]).toEqual([64_000, 64_000, 64_000, 64_000, 64_000]);
    expect(warns).toHaveLength(5);
    expect(warns[0]).toContain("OC_MAX_OUTPUT_TOKENS=abc is not a number of at least 1; ignored");
  });

  it("the request the server receives carries the clamped max_tokens: above the maximum -> 64,000; a small value honoured; junk ignored with one warning", async () => {
    sb = makeSandbox("oc-outcap-");
    fake = await startFakeAnthropic();
    const run = (v: string) => runCliAsync(["run", "--model", "anthropic/claude-sonnet-4-5", "hi"], { cwd: sb!.project, env: anthropicEnv(sb!, fake!.url, { OC_MAX_OUTPUT_TOKENS: v }), timeoutMs: 60_000 });
    const above = await run("10000000");
    expect(above.code, above.stderr).toBe(0);
    const small = await run("321.7");
    expect(small.code, small.stderr).toBe(0);
    // a tool step then an answer: two requests of one run, one warning
    fake.enqueue({ toolCalls: [{ name: "ls", input: {} }] }, { text: "done" });
    const junk = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "hi"], { cwd: sb.project, env: anthropicEnv(sb, fake.url, { OC_MAX_OUTPUT_TOKENS: "lots" }), timeoutMs: 60_000 });
    expect(junk.code, junk.stderr).toBe(0);
    expect(fake.requests.map((q) => q.body.max_tokens)).toEqual([64_000, 321, 64_000, 64_000]);
    expect(junk.stderr.split("OC_MAX_OUTPUT_TOKENS=lots").length - 1).toBe(1);
  }, 90_000);
});
