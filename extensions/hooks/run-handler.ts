/**
 * Run one handler and capture what it said: exit code, stdout, stderr (command) or the HTTP
 * response (http). Never throws: a crash, a timeout or a refused connection is a result too.
 * Command handlers run detached in their own process group so a timeout kills the whole tree, and every
 * group still running when this process exits is killed then (no hook outlives the run).
 * At most MAX_OUTPUT bytes of each stream are kept; the rest is read and counted, never kept.
 */
import { spawn } from "node:child_process";
import type { HandlerSpec } from "./api.js";
import { groupRegistry, signalGroup } from "../tools/kit.js";

export interface RawResult {
  /** command: the exit code (null when killed); http: 0 for 2xx, 1 otherwise */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** bytes the handler wrote to stdout, when more than MAX_OUTPUT (stdout then holds only the first part) */
  stdoutBytes?: number;
  timedOut: boolean;
  /** spawn failure, connection failure, non-2xx status */
  error?: string;
  ms: number;
}

export interface SpawnPlan {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export const MAX_OUTPUT = 1 << 20; // keep at most 1 MiB of each stream

/** Process groups of hook handlers still running; killed when this process exits. */
const live = groupRegistry();
const killGroup = (pgid: number): boolean => signalGroup(pgid, "SIGKILL");

/** Handler process groups still running (tests, doctor). */
export function liveHandlerGroups(): number[] {
  return live.tracked();
}

/** The first MAX_OUTPUT bytes of a stream, and how many bytes came in all. */
class Capped {
  private readonly parts: Buffer[] = [];
  kept = 0;
  total = 0;
  push(d: Buffer): void {
    this.total += d.length;
    if (this.kept >= MAX_OUTPUT) return;
    const part = d.length > MAX_OUTPUT - this.kept ? d.subarray(0, MAX_OUTPUT - this.kept) : d;
    this.parts.push(part);
    this.kept += part.length;
  }
  text(): string {
    return Buffer.concat(this.parts).toString("utf8");
  }
}

export function runCommand(plan: SpawnPlan, stdin: string, timeoutMs: number, signal?: AbortSignal): Promise<RawResult> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const out = new Capped();
    const err = new Capped();
    let timedOut = false;
    let settled = false;
    const done = (exitCode: number | null, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // a group with members left (a handler's `cmd &`) stays tracked, so the exit still ends it
      if (child.pid) live.untrackIfEmpty(child.pid);
      resolve({
        exitCode,
        stdout: out.text(),
        stderr: err.text(),
        ...(out.total > out.kept ? { stdoutBytes: out.total } : {}),
        timedOut,
        ...(error ? { error } : {}),
        ms: performance.now() - t0,
      });
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(plan.command, plan.args, { cwd: plan.cwd, env: plan.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, error: (e as Error).message, ms: performance.now() - t0 });
      return;
    }
    if (child.pid) live.track(child.pid);
    const killTree = () => {
      if (!child.pid || !killGroup(child.pid)) child.kill("SIGKILL");
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
      // a grandchild holding the pipes open must not hold us either
      setTimeout(() => done(null, `timed out after ${timeoutMs / 1000}s`), 200).unref();
    }, timeoutMs);
    const onAbort = () => {
      killTree();
      done(null, "aborted");
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout!.on("data", (d: Buffer) => out.push(d));
    child.stderr!.on("data", (d: Buffer) => err.push(d));
    child.on("error", (e) => done(null, e.message));
    child.on("close", (code) => done(timedOut ? null : code, timedOut ? `timed out after ${timeoutMs / 1000}s` : undefined));
    // a handler that never reads stdin closes the pipe early: that is not an error
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(stdin);
  });
}

/** Expand $VAR / ${VAR} in a header value, only for names the handler allows; others stay literal. */
export function expandHeader(value: string, allowed: readonly string[], env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, a: string | undefined, b: string | undefined) => {
    const name = (a ?? b)!;
    return allowed.includes(name) && env[name] !== undefined ? env[name]! : whole;
  });
}

export async function runHttp(h: Extract<HandlerSpec, { type: "http" }>, body: string, timeoutMs: number, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<RawResult> {
  const t0 = performance.now();
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [k, v] of Object.entries(h.headers ?? {})) headers[k] = expandHeader(v, h.allowedEnvVars ?? [], env);
  const timeout = AbortSignal.timeout(timeoutMs);
  const sig = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const res = await fetch(h.url, { method: "POST", headers, body, signal: sig, redirect: "manual" });
    const whole = await res.text();
    const text = whole.slice(0, MAX_OUTPUT);
    const ok = res.status >= 200 && res.status < 300;
    const cut = ok && whole.length > MAX_OUTPUT ? { stdoutBytes: Buffer.byteLength(whole) } : {};
    return { exitCode: ok ? 0 : 1, stdout: ok ? text : "", stderr: ok ? "" : text, ...cut, timedOut: false, ...(ok ? {} : { error: `HTTP ${res.status}` }), ms: performance.now() - t0 };
  } catch (e) {
    const timedOut = timeout.aborted;
    return { exitCode: null, stdout: "", stderr: "", timedOut, error: timedOut ? `timed out after ${timeoutMs / 1000}s` : (e as Error).message, ms: performance.now() - t0 };
  }
}
