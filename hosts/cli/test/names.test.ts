/**
 * Model names as people type them, through the compiled CLI against the fake Anthropic and OpenAI servers:
 * aliases and bare ids resolve to the full id (shown in run's session event, sent to the provider as its
 * own name); a mistyped model, provider, command or flag is a usage error (exit 2) naming the nearest,
 * and leaves no session behind.
 */
import { describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync } from "../../../test/kit/cli.js";
import { providerFakesForFile, sandboxForFile } from "../../../test/kit/file-fixtures.js";

const { anthropic, openai } = providerFakesForFile({ reset: false });
const sb = sandboxForFile("oc-names-");

const env = (extra: NodeJS.ProcessEnv = {}) => ({
  ...sb.env,
  ANTHROPIC_API_KEY: "sk-test",
  ANTHROPIC_BASE_URL: anthropic.url,
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: openai.baseURL,
  OC_RETRY_BASE_MS: "10",
  ...extra,
});
const sessionModel = (stdout: string): string | undefined => {
  const first = stdout.split("\n").find((l) => l.startsWith("{"));
  const e = first ? (JSON.parse(first) as { type: string; model?: string }) : undefined;
  return e?.type === "session" ? e.model : undefined;
};
const sessions = (): unknown[] => JSON.parse(runCli(["sessions", "--json", "--all"], { cwd: sb.project, env: env() }).stdout) as unknown[];

describe("-m: aliases and bare ids resolve through the provider manifests", () => {
  it("sonnet, opus, a bare id, a dated snapshot and gpt-5: the full id in the session event, the provider's own name on the wire", async () => {
    const cases: Array<[typed: string, full: string, server: "anthropic" | "openai"]> = [
      ["sonnet", "anthropic/claude-sonnet-4-6", "anthropic"],
      ["opus", "anthropic/claude-opus-4-8", "anthropic"],
      ["claude-sonnet-4-6", "anthropic/claude-sonnet-4-6", "anthropic"],
      ["claude-sonnet-4-5-20250929", "anthropic/claude-sonnet-4-5-20250929", "anthropic"],
      ["gpt-5", "openai/gpt-5", "openai"],
    ];
    const results = await Promise.all(cases.map(([typed]) => runCliAsync(["run", "--format", "json", "-m", typed, `hello ${typed}`], { cwd: sb.project, env: env() })));
    results.forEach((r, i) => {
      const [typed, full, server] = cases[i]!;
      expect(r.code, `${typed}: ${r.stderr}`).toBe(0);
      expect(sessionModel(r.stdout), typed).toBe(full);
      expect(r.stderr, typed).not.toContain("unknown model");
      const reqs = server === "anthropic" ? anthropic.requests.map((q) => ({ model: q.body.model, text: JSON.stringify(q.body.messages) })) : openai.requests.map((q) => ({ model: q.body.model, text: JSON.stringify(q.body.messages) }));
      const mine = reqs.filter((q) => q.text.includes(`hello ${typed}`));
      expect(mine.length, typed).toBeGreaterThan(0);
      expect(mine.every((q) => q.model === full.slice(full.indexOf("/") + 1)), typed).toBe(true);
    });
  });

  it("OC_MODEL=haiku and `-m sonnet` before the command (handed to run) resolve too", async () => {
    const a = await runCliAsync(["run", "--format", "json", "hi"], { cwd: sb.project, env: env({ OC_MODEL: "haiku" }) });
    expect(a.code, a.stderr).toBe(0);
    expect(sessionModel(a.stdout)).toBe("anthropic/claude-haiku-4-5");
    const b = await runCliAsync(["-m", "sonnet", "run", "--format", "json", "hi"], { cwd: sb.project, env: env() });
    expect(b.code, b.stderr).toBe(0);
    expect(sessionModel(b.stdout)).toBe("anthropic/claude-sonnet-4-6");
  });

  it("the model config key takes a name too (`\"model\": \"sonnet\"`): no config warning, the full id", async () => {
    const own = makeSandbox("oc-names-config-");
    try {
      own.write(".oceancode/oceancode.jsonc", JSON.stringify({ model: "sonnet", subagent: { model: "haiku" } }));
      const r = await runCliAsync(["run", "--format", "json", "hi"], { cwd: own.project, env: { ...env(), ...own.env } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/warning|OC_ERR_CONFIG/);
      expect(sessionModel(r.stdout)).toBe("anthropic/claude-sonnet-4-6");
    } finally {
      own.cleanup();
    }
  });

  it("scripted/<file>.json is a documented model: no 'unknown model' notice (finding 32)", () => {
    sb.write("s.json", JSON.stringify({ steps: [{ text: "from the script" }] }));
    const r = runCli(["run", "-m", "scripted/s.json", "hi"], { cwd: sb.project, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("from the script");
    expect(r.stderr).not.toMatch(/unknown model|using defaults/);
  });
});

describe("usage errors name the nearest and create no session (finding 17)", () => {
  it("a mistyped model, provider, command or flag: exit 2, did-you-mean, nothing stored, no request sent", () => {
    const fresh = makeSandbox("oc-names-empty-");
    try {
      const before = anthropic.requests.length + openai.requests.length;
      const oc = (...args: string[]) => runCli(args, { cwd: fresh.project, env: { ...env(), ...fresh.env } });
      const cases: Array<[args: string[], said: string]> = [
        [["run", "-m", "antropic/claude-x", "hi"], "no provider 'antropic' for model 'antropic/claude-x' (did you mean anthropic/claude-x?)"],
        [["run", "-m", "sonet", "hi"], "unknown model 'sonet' (did you mean anthropic/claude-sonnet-4-6"],
        [["run", "-m", "bogus/x", "hi"], "no provider 'bogus'"],
        [["run", "-m", "nomodel", "hi"], "unknown model 'nomodel'"],
        [["run", "--modle", "x", "hi"], "unknown flag '--modle' (did you mean --model?)"],
        [["rnu"], "unknown command 'rnu' (did you mean run?)"],
        [["--modle", "sonnet"], "unknown option '--modle' (did you mean --model?)"],
        [["sessions", "--jsno"], "unknown flag '--jsno' (did you mean --json?)"],
        [["completion", "bsh"], "unknown shell 'bsh' (did you mean bash"],
      ];
      for (const [args, said] of cases) {
        const r = oc(...args);
        expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
        expect(r.stderr, args.join(" ")).toContain(said);
        // a flag or a command is a slip in the command line: the usage line follows (a model's error is one line)
        if (!args.includes("-m")) expect(r.stderr, args.join(" ")).toMatch(/\nusage: /);
      }
      const listed = runCli(["sessions", "--json", "--all"], { cwd: fresh.project, env: fresh.env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([]);
      expect(anthropic.requests.length + openai.requests.length).toBe(before);
    } finally {
      fresh.cleanup();
    }
  });

  it("an unknown model of a known provider, spelled provider/model, stays allowed (with today's defaults notice)", async () => {
    const n = sessions().length;
    const r = await runCliAsync(["run", "-m", "anthropic/claude-next-9", "hi"], { cwd: sb.project, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("unknown model 'anthropic/claude-next-9': using defaults");
    expect(anthropic.requests.at(-1)?.body.model).toBe("claude-next-9");
    expect(sessions().length).toBe(n + 1);
  });
});
