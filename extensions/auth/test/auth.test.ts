/** `oceancode key` and `oceancode auth` through the compiled CLI: auth.json contents, mode, refusals. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
let authFile: string;
beforeEach(() => {
  sb = makeSandbox("oc-auth-");
  authFile = path.join(sb.home, ".local", "share", "oceancode", "auth.json");
});
afterEach(() => sb.cleanup());

const cli = (args: string[], input = "", env: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: sb.project, env: { ...sb.env, ...env }, input });
const stored = () => JSON.parse(fs.readFileSync(authFile, "utf8")) as Record<string, { type: string; key: string }>;

describe("oceancode key", () => {
  it("one argument stores an Anthropic key in auth.json, mode 0600, without echoing it", () => {
    const r = cli(["key", "sk-ant-abcdef123456"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("stored the anthropic key");
    expect(r.stdout).not.toContain("sk-ant-abcdef123456");
    expect(stored()).toEqual({ anthropic: { type: "api", key: "sk-ant-abcdef123456" } });
    expect(fs.statSync(authFile).mode & 0o777).toBe(0o600);
  });

  it("provider + key, a provider with the key on stdin, and no arguments with the key on stdin", () => {
    expect(cli(["key", "openai", "sk-oa-111111111"]).code).toBe(0);
    expect(cli(["key", "openai"], "sk-oa-222222222\n").code).toBe(0);
    expect(cli(["key"], "  sk-ant-333333333  \n").code).toBe(0);
    expect(stored()).toEqual({ openai: { type: "api", key: "sk-oa-222222222" }, anthropic: { type: "api", key: "sk-ant-333333333" } });
    // atomic writes leave no temp files behind
    expect(fs.readdirSync(path.dirname(authFile))).toEqual(["auth.json"]);
  });

  it("bad usage exits 2 with the usage line and stores nothing", () => {
    for (const [args, input, msg] of [
      [["key", "nosuch", "k123"], "", "unknown provider 'nosuch'"],
      [["key", "a", "b", "c"], "", "too many arguments"],
      [["key", "openai"], "", "the key is empty"],
      [["key", "--bogus"], "", "usage: oceancode key"],
    ] as const) {
      const r = cli([...args], input);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(msg);
    }
    expect(fs.existsSync(authFile)).toBe(false);
  });

  it("says so when the env var will win over the stored key", () => {
    const r = cli(["key", "anthropic", "sk-ant-stored-1"], "", { ANTHROPIC_API_KEY: "sk-env" });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ANTHROPIC_API_KEY is set in this environment and wins over auth.json");
  });

  it("a malformed auth.json is reported with its path and never overwritten", () => {
    fs.mkdirSync(path.dirname(authFile), { recursive: true });
    fs.writeFileSync(authFile, "{ not json");
    const r = cli(["key", "openai", "sk-oa-444444444"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(authFile);
    expect(r.stderr).toContain("not valid JSON");
    expect(fs.readFileSync(authFile, "utf8")).toBe("{ not json");
  });
});

describe("oceancode auth", () => {
  it("without a terminal and without input it explains the other ways, exit 2", () => {
    const r = cli(["auth"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("stdin is not a terminal");
    expect(r.stderr).toContain("oceancode key <provider> <api-key>");
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
  });

  it("without a terminal it reads \"<provider> <key>\"", () => {
    expect(cli(["auth"], "openai sk-oa-555555555\n").code).toBe(0);
    expect(stored().openai!.key).toBe("sk-oa-555555555");
  });

  const hasScript = spawnSync("script", ["--version"]).status === 0;
  it.runIf(hasScript)("on a terminal it asks for the provider and the key, and does not echo the key", () => {
    // script(1) gives the CLI a real pty; the answers are typed with pauses like a person would
    const typed = `sleep 1; printf '2\\r'; sleep 0.5; printf 'sk-typed-secret-42\\r'; sleep 1`;
    const r = spawnSync("sh", ["-c", `(${typed}) | script -qec '${process.execPath} ${CLI} auth' /dev/null`], {
      cwd: sb.project,
      env: { ...sb.env, TERM: "dumb" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.stdout).toContain("Which provider?");
    expect(r.stdout).toContain("openai API key (input hidden)");
    expect(r.stdout).toContain("stored the openai key");
    expect(r.stdout).not.toContain("sk-typed-secret-42");
    expect(stored()).toEqual({ openai: { type: "api", key: "sk-typed-secret-42" } });
  });
});
