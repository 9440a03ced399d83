/**
 * A foreground `bash` call run in the editor's terminal (terminal/create, wait_for_exit, output, release)
 * when the client offers `terminal`: the editor shows the command's live output inside the tool call.
 * The command is still composed by the engine's childProcess hook (the stripped env, a sandbox wrapper),
 * so what runs is what the native tool would have spawned; the model gets the same "output, then exit
 * code: N" text. Background jobs and `workdir` with an @ref keep the native tool.
 */
import os from "node:os";
import path from "node:path";
import type { SpawnSpec, ToolCallContext, ToolOutput } from "../engine/api.js";

/** The parts of the SDK's agent-side terminal handle this uses. */
export interface TerminalLike {
  id: string;
  waitForExit(): Promise<{ exitCode?: number | null; signal?: string | null }>;
  currentOutput(): Promise<{ output: string; truncated: boolean; exitStatus?: { exitCode?: number | null; signal?: string | null } | null }>;
  kill(): Promise<unknown>;
  release(): Promise<unknown>;
}

export interface TerminalDeps {
  create(params: { sessionId: string; command: string; args: string[]; cwd: string; env: Array<{ name: string; value: string }>; outputByteLimit: number }): Promise<TerminalLike>;
  /** compose the child (engine.hooks.childProcess) */
  compose(spec: SpawnSpec, sessionId: string): Promise<SpawnSpec>;
  /** show the terminal inside the tool call */
  attach(sessionId: string, callId: string, terminalId: string): Promise<void>;
  timeoutMs: number;
  maxOutputChars: number;
}

/** A long output reaches the model as head + tail, as the native tool cuts it. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[${text.length - max} chars cut]\n${text.slice(-half)}`;
}

function exitLine(code: number | null | undefined, signal: string | null | undefined): string {
  if (code !== null && code !== undefined) return `exit code: ${code}`;
  const num = signal ? os.constants.signals[signal as NodeJS.Signals] : undefined;
  return `exit code: ${num !== undefined ? 128 + num : "unknown"} (killed by ${signal ?? "a signal"})`;
}

export async function runInClientTerminal(ctx: ToolCallContext, deps: TerminalDeps): Promise<ToolOutput | undefined> {
  if (ctx.call.name !== "bash") return undefined;
  const input = ctx.tool?.fromClaudeInput ? ctx.tool.fromClaudeInput(ctx.claude.toolInput) : ctx.call.input;
  const command = input.command;
  if (typeof command !== "string" || !command.trim()) return undefined; // the native tool explains the input error
  if (input.run_in_background === true || input.background === true) return undefined;
  const workdir = typeof input.workdir === "string" && input.workdir ? input.workdir : undefined;
  if (workdir?.startsWith("@")) return undefined;
  const cwd = workdir ? path.resolve(ctx.cwd, workdir) : ctx.cwd;
  const requested = typeof input.timeout === "number" && input.timeout >= 1 ? input.timeout : deps.timeoutMs;
  const timeout = Math.min(requested, 600_000);
  const sessionId = ctx.session.info.id;
  if (ctx.signal.aborted) return { content: "bash: aborted before the command started", isError: true };

  const spec = await deps.compose({ command: "bash", args: ["-c", command], cwd, env: { ...process.env }, purpose: "bash" }, sessionId);
  const env = Object.entries(spec.env)
    .filter((e): e is [string, string] => typeof e[1] === "string")
    .map(([name, value]) => ({ name, value }));
  const term = await deps.create({ sessionId, command: spec.command, args: spec.args, cwd: spec.cwd, env, outputByteLimit: deps.maxOutputChars * 4 });
  try {
    await deps.attach(sessionId, ctx.call.id, term.id);
    let timedOut = false;
    let aborted = false;
    let timer: NodeJS.Timeout | undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        timedOut = true;
        resolve();
      }, timeout);
      ctx.signal.addEventListener(
        "abort",
        () => {
          aborted = true;
          resolve();
        },
        { once: true },
      );
    });
    const exited = term.waitForExit();
    const first = await Promise.race([exited.then((x) => ({ exit: x })), stop.then(() => undefined)]);
    clearTimeout(timer);
    if (!first) await term.kill().catch(() => undefined);
    const out = await term.currentOutput();
    const exit = first?.exit ?? out.exitStatus ?? { exitCode: null, signal: "SIGKILL" };
    const note = timedOut ? `Command timed out after ${timeout} ms; the editor's terminal killed it.\n` : aborted ? "Command aborted; the editor's terminal killed it.\n" : "";
    const body = out.output.trim() === "" ? "(no output)\n" : out.output.endsWith("\n") ? out.output : `${out.output}\n`;
    const truncated = out.truncated ? "[the editor kept only the end of the output]\n" : "";
    return {
      content: `${truncated}${cut(body, deps.maxOutputChars)}${note}${exitLine(exit.exitCode, exit.signal)}`,
      isError: timedOut || aborted || exit.exitCode !== 0,
      metadata: { exit_code: exit.exitCode ?? null, timed_out: timedOut, aborted, terminal_id: term.id, via: "acp" },
    };
  } finally {
    await term.release().catch(() => undefined);
  }
}
