/**
 * Provider errors are recognised by code, never by class (architecture rule 14). A user-tier extension
 * (plain ESM in a temp HOME, no import of the engine's ProviderError) registers a provider that throws
 * plain objects and plain Errors carrying a `code`; the real CLI, kernel and engine must retry
 * `rate_limited`, take `prompt_too_long` through engine.promptTooLong and one retry, and show `auth`.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { PROVIDER_ERROR_CODES } from "../api.js";
import { ProviderError, asProviderError, isRetryableProviderError, providerError, providerErrorCode } from "../kit.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-provider-errors-");
  sb.write(
    ".oceancode/extensions/plainerr/manifest.json",
    JSON.stringify({
      id: "plainerr",
      version: "1.0.0",
      kernel: "^0.1.0",
      main: "index.js",
      requires: ["engine"],
      activation: ["onEvent:provider:plainerr"],
      contributes: { providers: ["plainerr"] },
    }),
    "home",
  );
  sb.write(
    ".oceancode/extensions/plainerr/index.js",
    `// throws provider errors WITHOUT the engine's class: a plain object, a plain Error with a code
const attempts = new Map();
let hookRan = 0;
const failures = {
  // model name -> what the first attempts of each step throw
  rate: (n) => (n <= 2 ? { code: "rate_limited", message: "slow down", status: 429, retryAfterMs: 5 } : undefined),
  legacy: (n) => (n <= 1 ? Object.assign(new Error("old style"), { kind: "rate_limit", status: 429, retryAfterMs: 5 }) : undefined),
  long: (n) => (n <= 1 ? Object.assign(new Error("prompt is too long: 250000 tokens > 200000"), { code: "prompt_too_long", status: 400 }) : undefined),
  auth: () => Object.assign(new Error("invalid x-api-key"), { code: "auth", status: 401 }),
  overloaded: () => ({ code: "overloaded", message: "busy busy", status: 529, retryAfterMs: 1 }),
};
export default { activate(ctx) {
  const engine = ctx.services.get("engine");
  engine.hooks.promptTooLong.tap({ name: "plainerr" }, () => { hookRan += 1; });
  engine.providers.register({
    id: "plainerr",
    describe(name) {
      return { id: "plainerr/" + name, provider: "plainerr", name, contextWindow: 200000, maxOutputTokens: 4096, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
    },
    async *stream(req) {
      const key = req.sessionId + ":" + req.sessionStep;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      const fail = failures[req.model.name]?.(n);
      if (fail) throw fail;
      yield { type: "text_delta", text: "answered on attempt " + n + " (promptTooLong taps: " + hookRan + ")" };
      yield { type: "done", stopReason: "end_turn" };
    },
  });
} };
`,
    "home",
  );
});
afterEach(() => sb.cleanup());

const run = (model: string, env: NodeJS.ProcessEnv = {}) =>
  runCli(["--home", sb.home, "--dir", sb.project, "run", "--model", `plainerr/${model}`, "go"], { env: { ...sb.env, OC_RETRY_BASE_MS: "1", ...env }, cwd: sb.project });

describe("provider errors by code, from a provider that never imports the engine's class", () => {
  it("a plain object with code rate_limited is retried with backoff, then the answer arrives", () => {
    const r = run("rate");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("answered on attempt 3");
    expect(r.stderr.match(/rate_limited \(429\): slow down; retry \d\/4/g)).toHaveLength(2);
  });

  it("the legacy `kind: \"rate_limit\"` field is still read (one release), as rate_limited", () => {
    const r = run("legacy");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("answered on attempt 2");
    expect(r.stderr).toContain("rate_limited (429): old style; retry 1/4");
  });

  it("a plain Error with code prompt_too_long runs engine.promptTooLong, then one retry", () => {
    const r = run("long");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("answered on attempt 2 (promptTooLong taps: 1)");
    expect(r.stderr).toContain("refused the request as too long; cutting the window and retrying once");
  });

  it("code auth is not retried: shown to the user, exit 1", () => {
    const r = run("auth");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("auth (401): invalid x-api-key");
    expect(r.stderr).not.toMatch(/retry \d/);
  });

  it("a retryable code gives up after the configured retries with one clear error", () => {
    const r = run("overloaded", { OC_MAX_RETRIES: "2" });
    expect(r.code).toBe(1);
    expect(r.stderr.match(/retry \d\/2/g)).toHaveLength(2);
    expect(r.stderr).toContain("overloaded (529): busy busy");
  });
});

describe("the provider error helpers in engine/api", () => {
  it("the code set is exactly the contract's", () => {
    expect([...PROVIDER_ERROR_CODES]).toEqual(["rate_limited", "overloaded", "server", "network", "prompt_too_long", "auth", "bad_request", "aborted"]);
  });

  it("providerErrorCode reads code by shape; legacy kind for one release; anything else is undefined", () => {
    expect(providerErrorCode({ code: "server", message: "x" })).toBe("server");
    expect(providerErrorCode(Object.assign(new Error("x"), { code: "network" }))).toBe("network");
    expect(providerErrorCode({ kind: "rate_limit" })).toBe("rate_limited");
    expect(providerErrorCode({ kind: "overloaded" })).toBe("overloaded");
    expect(providerErrorCode({ code: "ENOENT" })).toBeUndefined();
    expect(providerErrorCode(new Error("plain"))).toBeUndefined();
    expect(providerErrorCode("rate_limited")).toBeUndefined();
    expect(providerErrorCode(null)).toBeUndefined();
  });

  it("isRetryableProviderError: rate_limited, overloaded, server, network only", () => {
    const retryable = PROVIDER_ERROR_CODES.filter((c) => isRetryableProviderError({ code: c, message: c }));
    expect(retryable).toEqual(["rate_limited", "overloaded", "server", "network"]);
  });

  it("providerError makes one with code, status, retryAfterMs and cause; the deprecated kind alias maps back", () => {
    const cause = new Error("socket");
    const e = providerError("rate_limited", "slow", { status: 429, retryAfterMs: 100, cause });
    expect(e).toMatchObject({ code: "rate_limited", message: "slow", status: 429, retryAfterMs: 100, cause });
    expect(e.kind).toBe("rate_limit");
    expect(e).toBeInstanceOf(ProviderError);
  });

  it("asProviderError passes a coded object through and wraps a legacy one", () => {
    const plain = { code: "server" as const, message: "boom", status: 500 };
    expect(asProviderError(plain)).toBe(plain);
    expect(asProviderError({ kind: "rate_limit", message: "old", retryAfterMs: 7 })).toMatchObject({ code: "rate_limited", message: "old", retryAfterMs: 7 });
    expect(asProviderError(new Error("x"))).toBeUndefined();
  });
});
