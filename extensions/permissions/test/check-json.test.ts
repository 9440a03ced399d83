/**
 * `permissions check --json` per segment (smaller-findings #37): `guard` is what the shell guard alone
 * says, `decision` what the rules and mode made of it; no bare `verdict` to confuse the two.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import type { PermissionDecision } from "../api.js";

let sb: Sandbox | undefined;
afterEach(() => sb?.cleanup());

async function json(s: Sandbox, ...args: string[]): Promise<PermissionDecision> {
  const r = await runCliAsync(["--dir", s.project, "permissions", "check", "--json", ...args], { env: s.env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as PermissionDecision;
}

describe("permissions check --json segments", () => {
  it("rm x under the empty config: the guard would ask, the base rule allows, and the fields say which is which", async () => {
    sb = makeSandbox();
    const [plain, guarded] = await Promise.all([json(sb, "bash", "git status && rm x"), json(sb, "bash", "rm -rf ~")]);
    expect(plain.action).toBe("allow");
    const rm = plain.segments![1]!;
    expect(rm).toMatchObject({ text: "rm x", kind: "plain", guard: { verdict: "ask" }, decision: "allow", rule: "* * allow", layer: "default" });
    expect(rm.guard.reason).toMatch(/not on the read-only safe list/);
    expect(rm.reason).toBe("* * allow matched 'rm x'");
    expect(Object.keys(rm)).not.toContain("verdict");
    expect(plain.segments![0]).toMatchObject({ kind: "safe", guard: { verdict: "allow" }, decision: "allow" });
    expect(guarded).toMatchObject({ action: "ask", layer: "guard", autoApprove: false });
    expect(guarded.always).toBeUndefined();
    expect(guarded.segments![0]).toMatchObject({ kind: "guard", guard: { verdict: "ask" }, decision: "ask", layer: "guard" });
  });
});
