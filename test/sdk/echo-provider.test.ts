/**
 * The echo-provider example installed in ~/.oceancode/extensions/ and driven through the compiled CLI:
 * it loads from outside the package and imports oceancode/api/engine at run time; its 429 is retried by
 * the engine and its prompt-too-long goes through the tideline's cut and one retry.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { install, oc } from "./helpers.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-sdk-echo-");
  install(sb, "echo-provider");
});
afterEach(() => sb.cleanup());

describe("echo-provider installed as a user extension", () => {
  it("answers through run, loaded lazily on its model", () => {
    const r = oc(sb, ["run", "--model", "echo/echo", "hello ocean"]);
    expect(r.stderr).not.toContain("failed");
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("echo: hello ocean");
    const i = oc(sb, ["inspect"]);
    expect(i.stdout).toMatch(/echo-provider\s+user\s+lazy/);
  });

  it("a 429 (code rate_limited) is retried by the engine and the retry answers", () => {
    const r = oc(sb, ["run", "--model", "echo/echo", "[429] hello"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\(429\): echo: rate limited \(429\); retry 1\/\d+/);
    expect(r.stdout.trim()).toBe("echo: [429] hello");
  });

  it("a prompt-too-long (code prompt_too_long) goes through the tideline's cut (older rows leave), then one retry answers", () => {
    expect(oc(sb, ["run", "--model", "echo/echo", "one"]).code).toBe(0);
    expect(oc(sb, ["run", "--continue", "--model", "echo/echo", "two"]).code).toBe(0);
    const r = oc(sb, ["-v", "run", "--continue", "--model", "echo/echo", "[too-long] three"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("the provider refused the request as too long; cutting the window and retrying once");
    // nothing closed yet in this process: the tideline cuts the older rows by estimate (never the prompt)
    const cut = /\[tideline\] tideline: the provider refused the request as too long; no closed block yet: cut the older (\d+) row\(s\)/.exec(r.stderr);
    expect(cut, r.stderr).not.toBeNull();
    expect(Number(cut![1])).toBeGreaterThan(0);
    expect(r.stdout.trim()).toBe("echo: [too-long] three");
  });
});
