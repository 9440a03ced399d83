/**
 * `oceancode completion bash|zsh|fish`: each script parses (bash -n, zsh -n, fish -n) and, loaded by its real
 * shell, completes commands, flags, model names and session ids; the dynamic parts call back
 * `oceancode __complete` (an `oceancode` on PATH that runs the compiled CLI in a throwaway HOME).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
let env: NodeJS.ProcessEnv;
const scripts: Record<string, string> = {};
let sessionId = "";

const has = (bin: string) => spawnSync("sh", ["-c", `command -v ${bin}`]).status === 0;
/** zsh and fish may be missing on a developer's machine (skipped there); CI installs them (.ci/run) and never skips */
const shellMissing = (bin: string) => !has(bin) && !process.env.CI;

beforeAll(() => {
  sb = makeSandbox("oc-completion-");
  const bin = path.join(sb.home, "bin");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "oceancode"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  env = { ...sb.env, PATH: `${bin}:${process.env.PATH ?? ""}`, OC_MODEL: "scripted/echo" };
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = runCli(["completion", shell], { cwd: sb.project, env });
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = sb.write(`completion.${shell}`, r.stdout, "home");
  }
  const run = runCli(["run", "--format", "json", "hello"], { cwd: sb.project, env });
  expect(run.code, run.stderr).toBe(0);
  sessionId = (JSON.parse(run.stdout.split("\n")[0]!) as { sessionId: string }).sessionId;
});
afterAll(() => sb.cleanup());

const shell = (bin: string, script: string) => {
  const r = spawnSync(bin, ["-c", script], { cwd: sb.project, env, encoding: "utf8", timeout: 60_000 });
  expect(r.status, `${bin}: ${r.stderr}`).toBe(0);
  return r.stdout.split("\n").filter(Boolean);
};

describe("oceancode completion", () => {
  it("--help says how to install it in each shell; no shell is a usage error", () => {
    const h = runCli(["completion", "--help"], { cwd: sb.project, env });
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("source <(oceancode completion bash)");
    expect(h.stdout).toContain("~/.config/fish/completions/oceancode.fish");
    expect(runCli(["completion"], { cwd: sb.project, env }).code).toBe(2);
    expect(runCli(["--help"], { cwd: sb.project, env }).stdout).toMatch(/\n {2}completion +print a shell completion script/);
  });

  it("__complete: model names from the manifests, this directory's session ids", () => {
    const models = runCli(["__complete", "models"], { cwd: sb.project, env }).stdout.split("\n");
    expect(models).toEqual(expect.arrayContaining(["sonnet", "opus", "haiku", "anthropic/claude-sonnet-4-6", "openai/gpt-5", "scripted/echo"]));
    expect(runCli(["__complete", "sessions"], { cwd: sb.project, env }).stdout.split("\n")).toContain(sessionId);
  });

  it("bash: parses, and COMP_WORDS drives _oceancode through commands, flags, models and session ids", () => {
    expect(spawnSync("bash", ["-n", scripts.bash!]).status).toBe(0);
    const complete = (...words: string[]) => shell("bash", `source '${scripts.bash}'; complete -p oceancode; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _oceancode; printf '%s\\n' "\${COMPREPLY[@]}"`);
    expect(complete("oceancode", "ru")[0]).toBe("complete -F _oceancode oceancode");
    expect(complete("oceancode", "ru").slice(1)).toEqual(["run"]);
    expect(complete("oceancode", "run", "--mo").slice(1)).toEqual(["--model"]);
    expect(complete("oceancode", "run", "--max-s").slice(1)).toEqual(["--max-steps"]);
    expect(complete("oceancode", "sessions", "--j").slice(1)).toEqual(["--json"]);
    expect(complete("oceancode", "-m", "son").slice(1)).toEqual(["sonnet"]);
    expect(complete("oceancode", "run", "-m", "openai/gpt-5-m").slice(1)).toEqual(["openai/gpt-5-mini"]);
    expect(complete("oceancode", "-r", "").slice(1)).toEqual([sessionId]);
    expect(complete("oceancode", "completion", "z").slice(1)).toEqual(["zsh"]);
    expect(complete("oceancode", "--dir", sb.project, "--con").slice(1)).toEqual(["--continue"]);
  });

  it.skipIf(shellMissing("zsh"))("zsh: parses, and with compinit a completion call offers the candidates", () => {
    expect(spawnSync("zsh", ["-n", scripts.zsh!]).status).toBe(0);
    // compadd only works inside a completion widget: stand it in for one to read what _oceancode offers
    const offered = (...words: string[]) =>
      shell("zsh", `autoload -Uz compinit && compinit -u -d '${sb.home}/.zcompdump'; source '${scripts.zsh}'; print -r -- \${_comps[oceancode]}; compadd() { local a; for a in "$@"; do [[ $a == -- ]] && continue; print -r -- $a; done }; _describe() { local -a c; c=(\${(P)2}); print -rl -- \${c%%:*}; }; words=(${words.map((w) => `'${w}'`).join(" ")}); CURRENT=${words.length}; _oceancode`);
    expect(offered("oceancode", "ru")[0]).toBe("_oceancode");
    expect(offered("oceancode", "ru")).toContain("run");
    expect(offered("oceancode", "-m", "son")).toContain("sonnet");
    expect(offered("oceancode", "--resume", "")).toContain(sessionId);
    expect(offered("oceancode", "run", "--")).toContain("--max-usd");
  });

  it.skipIf(shellMissing("fish"))("fish: parses, and `complete -C` completes commands, flags and models", () => {
    expect(spawnSync("fish", ["-n", scripts.fish!]).status).toBe(0);
    const c = (line: string) => shell("fish", `source '${scripts.fish}'; complete -C '${line}'`).map((l) => l.split("\t")[0]);
    expect(c("oceancode ru")).toContain("run");
    expect(c("oceancode run --max-")).toEqual(expect.arrayContaining(["--max-steps", "--max-usd", "--max-minutes"]));
    expect(c("oceancode -m son")).toContain("sonnet");
    expect(c("oceancode --resume ")).toContain(sessionId);
  });
});
