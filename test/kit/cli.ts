/**
 * Run the real, compiled CLI (dist/hosts/cli/main.js) in a temp HOME and project.
 * Tests use this to drive oceancode the way a user does.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { homeEnv } from "./fakes/home-env.js";
import { fileURLToPath } from "node:url";

// test/kit -> the repo; compiled (dist/test/kit, a bench importing it) one level more
const up = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const REPO_ROOT = path.basename(up) === "dist" ? path.dirname(up) : up;
export const CLI = path.join(REPO_ROOT, "dist", "hosts", "cli", "main.js");

export interface Sandbox {
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
  write(rel: string, content: string, base?: "home" | "project"): string;
  cleanup(): void;
}

/** The sandbox's env pointed at a fake Anthropic server (test/kit/fakes/anthropic-server.ts): a test key, fast retries. */
export function anthropicEnv(sb: Pick<Sandbox, "env">, url: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...sb.env, ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: url, OC_RETRY_BASE_MS: "10", ...extra };
}

/** `git init` in `dir`: what makes a test project's own files the user's (local tier) rather than the repo tier. */
export function userCheckout(dir: string): void {
  const r = spawnSync("git", ["init", "-q", dir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git init ${dir}: ${r.stderr || r.error?.message}`);
}

/** A temp HOME and project dir, with an env that points every oceancode path inside them. */
/** Set the times of everything under `root` a minute back (the --help cache skips inputs changed within the last second). */
export function ageFiles(root: string): void {
  const t = new Date(Date.now() - 60_000);
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    if (!st.isSymbolicLink()) fs.utimesSync(p, t, t);
  };
  walk(root);
}

export function makeSandbox(prefix = "oc-test-"): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  // a git checkout, as a user's project is: files a test writes there are untracked, so the local tier
  // (kernel/ownership.ts); a test of a folder with no .git removes it
  userCheckout(project);
  const env = homeEnv(home, path.join(root, "managed", "managed.json"));
  return {
    home,
    project,
    env,
    write(rel, content, base = "project") {
      const file = path.join(base === "home" ? home : project, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
    cleanup() {
      // a child that is still letting go can add a file while the tree goes (ENOTEMPTY): rm retries those
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI synchronously (stdin closed). */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): RunResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    input: opts.input ?? "",
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 60_000,
  });
  // a timeout or spawn failure says so in stderr, so a failing assertion shows why the output is empty
  const why = r.error ? `\n[runCli: ${r.error.message}; signal ${r.signal ?? "none"}]` : r.signal ? `\n[runCli: killed by ${r.signal}]` : "";
  return { code: r.status, stdout: r.stdout, stderr: r.stderr + why };
}

/** Run the CLI asynchronously (for servers started in the same test process). */
export function runCliAsync(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? "");
  });
}

/** Remove a sandbox that a killed process (the pager's last ledger write) may still be writing into: retry briefly. */
export async function cleanupSettled(sb: Sandbox | undefined): Promise<void> {
  for (let i = 0; sb && i < 10; i++) {
    try {
      sb.cleanup();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
