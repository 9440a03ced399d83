/**
 * Finding 45: the unknown-tool error lists the tools that request offered, not every registered one. A
 * project rule `bash * deny` leaves bash out of the request (the guide: a tool whose last rule is a
 * `* deny` is not offered); a model that then calls a tool that does not exist is told the offered ones.
 * In process: the real kernel and bundled extensions, the scripted provider.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../../kernel/kernel.js";
import type { ModelRequest, ToolResult } from "../api.js";
import { makeSandbox } from "../../../test/kit/cli.js";
import { discoverKernel } from "../../../test/kit/kernel-boot.js";

const sb = makeSandbox("oc-unknown-tool-");
let kernel: Kernel | undefined;
afterAll(async () => {
  await kernel?.shutdown();
  sb.cleanup();
});

describe("unknown tool", () => {
  it("the error lists only the tools offered in that request", async () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * deny"] }));
    sb.write("script.json", JSON.stringify({ steps: [{ text: "try", tool_calls: [{ name: "nosuch", input: {} }] }, { text: "done" }] }));
    kernel = await discoverKernel(sb);
    await kernel.activate("onSession");
    const engine = await kernel.service("engine");
    const requests: ModelRequest[] = [];
    const results: ToolResult[] = [];
    engine.hooks.modelRequest.tap({ name: "test", stage: "observe" }, (req) => (requests.push(req), req));
    engine.hooks.toolResult.tap({ name: "test", stage: "observe" }, (r) => (results.push(r), r));
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
    await engine.prompt(s, "go");
    const offered = requests[0]!.tools.map((t) => t.name);
    expect(offered).toContain("read");
    expect(offered).not.toContain("bash");
    const r = results.find((x) => x.name === "nosuch")!;
    expect(r.isError).toBe(true);
    expect(r.content).toBe(`unknown tool 'nosuch'; available: ${offered.join(", ")}`);
    expect(engine.tools.get("bash")).toBeDefined(); // registered, only not offered
  });
});
