/**
 * `permissions check` says what happens attended and under --auto (issue 27, item 10): allowed unconfined,
 * allowed confined, asked, rejected or denied, and why; --stdin checks a batch (one command per line),
 * --json carries the same `outcomes`, and where no sandbox exists the answers change the way a run does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import type { PermissionDecision } from "../api.js";
import type { Outcomes } from "../outcome.js";
import { findOnPath } from "../../sandbox/bwrap.js";

type Checked = PermissionDecision & { input: string; outcomes: Outcomes };
const HAS_BWRAP = process.platform === "linux" && !!findOnPath("bwrap");

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-check-outcomes-");
  sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ permission: ["bash npm test allow", "bash git push * ask"] }), "home");
});
afterAll(() => sb.cleanup());

async function batch(lines: string[], env: NodeJS.ProcessEnv = {}, ...flags: string[]): Promise<Checked[]> {
  const r = await runCliAsync(["--dir", sb.project, "permissions", "check", "--json", ...flags, "--stdin", "bash"], { env: { ...sb.env, ...env }, input: lines.join("\n") });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Checked);
}

describe.runIf(HAS_BWRAP)("permissions check: attended and --auto outcomes", () => {
  it("a batch: confined allows, asks, guard rejections under --auto, the floor's denies", async () => {
    const [status, test, push, home, root] = await batch(["git status", "npm test", "git push origin main", "rm -rf ~", "rm -rf /"]);
    expect(status!.outcomes).toEqual({ attended: expect.objectContaining({ outcome: "allowed confined" }), auto: expect.objectContaining({ outcome: "allowed confined" }) });
    expect(test!.outcomes.auto.why).toMatch(/exact allow rule, still confined/);
    expect(push!.outcomes.attended).toMatchObject({ outcome: "asked" });
    expect(push!.outcomes.attended.why).toMatch(/approved: allowed unconfined/);
    expect(push!.outcomes.auto).toMatchObject({ outcome: "allowed confined" });
    expect(home!.outcomes.auto).toMatchObject({ outcome: "rejected" });
    expect(root!.outcomes).toMatchObject({ attended: { outcome: "denied" }, auto: { outcome: "denied" } });
    // the JSON's verdict and decision agree (smaller finding 37): the action is the outcome's basis
    expect(home!.action).toBe("ask");
  });
  it("an unconfined run: asked attended, rejected by --auto unless the exact allow rule names it", async () => {
    const [plain, named] = await batch(["make deploy", "npm test"], {}, "--unconfined");
    expect(plain!.outcomes.attended.outcome).toBe("asked");
    expect(plain!.outcomes.auto).toMatchObject({ outcome: "rejected" });
    expect(named!.outcomes.auto).toMatchObject({ outcome: "allowed unconfined" });
  });
  it("no sandbox here: an automatic allow asks a person attended and is rejected by --auto; an exact rule runs unconfined", async () => {
    const [status, test] = await batch(["git status", "npm test"], { OC_SANDBOX_BWRAP: "none" });
    expect(status!.outcomes.attended.outcome).toBe("asked");
    expect(status!.outcomes.auto).toMatchObject({ outcome: "rejected" });
    expect(status!.outcomes.auto.why).toMatch(/apt install bubblewrap/);
    expect(test!.outcomes.auto.outcome).toBe("allowed unconfined");
  });
  it("the text form prints both lines, and sandbox.enabled false says allowed unconfined", async () => {
    const r = await runCliAsync(["--dir", sb.project, "permissions", "check", "bash", "git status"], { env: sb.env });
    expect(r.stdout).toMatch(/^attended: allowed confined \(/m);
    expect(r.stdout).toMatch(/^--auto: allowed confined \(/m);
    sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ sandbox: { enabled: false } }), "home");
    const off = await runCliAsync(["--dir", sb.project, "permissions", "check", "bash", "git status"], { env: sb.env });
    expect(off.stdout).toMatch(/^--auto: allowed unconfined \(sandbox\.enabled is false/m);
  });
});
