/**
 * A workflow script is untrusted text's author: what it reports (api.progress) must never drive the terminal.
 * `workflow run` on a pipe gives exact JSON whose strings keep the text escaped; no raw ESC, CSI (C1) or BEL
 * byte reaches stdout in either case.
 */
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync } from "../kit/cli.js";

const sb = makeSandbox("oc-sec-wf-out-");
afterAll(() => sb.cleanup());

describe("workflow output is data, never terminal control", () => {
  it("a script's progress with ESC, C1 CSI and BEL reaches stdout escaped", async () => {
    const file = sb.write("esc.mjs", 'export const meta = { name: "esc" };\nexport default async function main(api) { await api.progress("\\u009b2J\\u001b]0;pwned\\u0007 after"); }\n');
    const r = await runCliAsync(["--dir", sb.project, "workflow", "run", file], { cwd: sb.project, env: sb.env, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[\x07\x1b\x9b]/);
    const bodies = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { progress?: string });
    // the text itself is kept (as data), only made inert
    expect(bodies.some((b) => typeof b.progress === "string" && b.progress.includes("pwned") && b.progress.includes("after"))).toBe(true);
  });
});
