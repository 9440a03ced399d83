/**
 * `oceancode run` (and `oceancode -p`): one headless turn, or one per stdin line with --input-format stream-json.
 * Boots the session extensions, opens or resumes a session, streams events (text, one JSON event per line with
 * --format json, or Claude Code's shapes with --output-format: hosts/run/claude-stream.ts), answers asks (--auto approves those that
 * allow an automatic approver, never the shell guard's; otherwise rejects and tells the model why).
 * Exit codes: 0 done (a bound tripping — spend, clock, steps — is a clean stop: 0 too), 1 error, 2 usage (an unknown flag or model, a busy session), 130 interrupted (SIGINT).
 */
import os from "node:os";
import type { Kernel } from "../boot.js";
import type { CommandIO } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type AutomaticApproval, type EngineService, type Rejection, type SessionEvent, type Session } from "../../extensions/engine/api.js";
import { discardCauseText, isSessionBusy } from "../../extensions/engine/kit.js";
import { parseBoundValue, parseRunArgs, RUN_FLAGS, RUN_USAGE, RUN_USAGE_LINE, validMaxSteps } from "./args.js";
import { commandHelp } from "../cli/help.js";
import { safeJson, visible, visibleLine, VisibleStream } from "../terminal/sanitize.js";
import { sanitizingLogger } from "../terminal/writer.js";
import { EXIT_PIPE_GONE, safeWrite, watchPipe } from "../terminal/pipe.js";
import { ClaudeStream, type ClaudeMessage, type ClaudeResult } from "./claude-stream.js";
import { claudeInitFacts } from "./claude-facts.js";
import { StreamInputReader } from "./stream-input.js";
import { ledgerRecord, nextOrAbort, questionOutcome, readStdin, storageTrouble, type TidelineLike } from "./support.js";
import type { SessionOverrides } from "../../extensions/engine/api.js";
import { Usage } from "../../kernel/api.js";


/** A new session's model: `model` as configured (--model, else $OC_MODEL, else the config files), else the default. */
function newSessionModel(kernel: Kernel): string {
  const m = kernel.config.get("model");
  return typeof m === "string" && m ? m : DEFAULT_MODEL_ID;
}

/** The exit code of an interrupted run (128 + SIGINT), as shells report a process a ctrl+c stopped. */
export const EXIT_INTERRUPTED = 130;
/** The signals that stop a run's turn (each exits 128 + its number: 130, 143, 129). */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How long a stopped turn may take to reach its end before the run exits without it. */
const SIGNAL_GRACE_MS = 10_000;

function exitCodeOf(sig: NodeJS.Signals): number {
  return 128 + (os.constants.signals[sig] ?? 0);
}

/** How a host calls run: `print` is `oceancode -p` (flags on both sides of the prompt, Claude's text output). */
export interface RunOptions {
  print?: boolean;
  version?: string;
}

export async function main(kernel: Kernel, argv: string[], io: CommandIO, opts: RunOptions = {}): Promise<number> {
  let args;
  try {
    args = parseRunArgs(argv, { print: opts.print });
  } catch (e) {
    if (Usage.is(e)) {
      io.stderr.write(`oceancode run: ${e.message}\n${RUN_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    io.stdout.write(`${commandHelp({ name: "run", usage: RUN_USAGE_LINE, summary: "one headless session turn, then exit" }, RUN_FLAGS)}\n`);
    return 0;
  }
  for (const w of args.warnings) io.stderr.write(`oceancode run: warning: ${visible(w)}\n`);
  let prompt = args.prompt;
  // --input-format stream-json: stdin is the messages; the first is read (and checked) before anything runs
  let input: StreamInputReader | undefined;
  if (args.inputFormat === "stream-json") {
    if (prompt.trim()) {
      io.stderr.write(`oceancode run: --input-format stream-json reads the messages from stdin: give no prompt word\n${RUN_USAGE}\n`);
      return 2;
    }
    input = new StreamInputReader(io.stdin);
    const first = await input.next();
    if (first.kind !== "message") {
      io.stderr.write(`oceancode run: ${first.kind === "bad" ? `stdin line ${first.line}: ${first.error}` : "no message on stdin (one JSON line per user message)"}\n${RUN_USAGE}\n`);
      return 2;
    }
    prompt = first.text;
  } else if (!io.stdin.isTTY) {
    const piped = await readStdin(io.stdin);
    if (piped.trim()) prompt = prompt ? `${prompt}\n\n${piped}` : piped;
  }
  if (!prompt.trim() && !args.continue && !args.session) {
    io.stderr.write(`oceancode run: no message given\n${RUN_USAGE}\n`);
    return 2;
  }
  if (args.maxSteps !== undefined) {
    if (!validMaxSteps(args.maxSteps)) {
      io.stderr.write(`oceancode run: --max-steps must be a whole number above 0 (bound a long run with a budget or a clock instead)\n${RUN_USAGE}\n`);
      return 2;
    }
    // the CLI handed it to the kernel as the host layer's engine.max_steps (never an environment variable a child
    // would inherit); it is stored on the session too, so it survives --continue (the guide: flag values are stored)
  }

  // the spend and clock bounds: numbers above 0, stored on the session (the bounds extension reads them)
  const bounds: Record<string, number> = {};
  for (const [flag, raw, key] of [["--max-usd", args.maxUsd, "max_usd"], ["--max-minutes", args.maxMinutes, "max_minutes"]] as const) {
    if (raw === undefined) continue;
    const v = parseBoundValue(raw);
    if (v === undefined) {
      io.stderr.write(`oceancode run: ${flag} must be a number above 0 (got '${visible(raw)}')\n${RUN_USAGE}\n`);
      return 2;
    }
    bounds[key] = v;
  }

  // a model pinned by requirements.json beats --model, as a pin beats every layer (the CLI warned)
  if (args.model !== undefined && kernel.config.sourceOf("model")?.layer === "requirements") args.model = kernel.config.get("model") as string;

  const json = args.format === "json";
  /** Claude Code's output shapes (--output-format, or -p's default text: the final answer only) */
  const claude = args.outputFormat ?? (opts.print ? "text" : undefined);
  // Text mode writes for a person at a terminal: untrusted text (model text, tool names and inputs, results,
  // notices, log lines) is made visible first (hosts/terminal). --format json keeps the exact text on
  // stdout (JSON escapes it); stderr is for people in both formats.
  kernel.setLogger(sanitizingLogger(io.verbose, io.stderr));
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  // `-m sonnet`, `-m gpt-5`: the full provider/model id from here on (a mistyped name: usage, no session)
  if (args.model !== undefined) {
    try {
      args.model = engine.resolveModel(args.model);
    } catch (e) {
      io.stderr.write(`oceancode run: ${visible((e as Error).message)}\n`);
      return 2;
    }
  }
  const overrides: SessionOverrides = {};
  if (args.tideline !== undefined) {
    if (kernel.hasService("tideline")) {
      const t = await kernel.service("tideline");
      try {
        t.parseSpec?.(args.tideline);
      } catch (e) {
        io.stderr.write(`oceancode run: ${visible((e as Error).message)}\n${RUN_USAGE}\n`);
        return 2;
      }
    } else io.stderr.write("oceancode run: warning: --tideline ignored: the tideline extension is not enabled\n");
    overrides.tideline = args.tideline;
  }
  if (args.maxSteps !== undefined) overrides.max_steps = Number(args.maxSteps);
  Object.assign(overrides, bounds);
  if (Object.keys(bounds).length > 0 && !kernel.hasService("bounds")) io.stderr.write("oceancode run: warning: --max-usd/--max-minutes ignored: the bounds extension is not enabled\n");
  // --agent plan: read-only plan mode (the plan-mode extension enforces it); refused when nothing would enforce it
  if (args.agent === "plan" && !kernel.hasService("plan-mode")) {
    io.stderr.write("oceancode run: --agent plan needs the plan-mode extension, which is not enabled\n");
    return 2;
  }
  if (args.agent === "plan") overrides.agent = "plan";

  // a model no installed provider serves is a usage error, found before a session exists
  if (args.model !== undefined || (!args.session && !args.continue)) {
    const model = args.model ?? newSessionModel(kernel);
    let unready: string | undefined;
    try {
      unready = await engine.checkModel(model);
    } catch (e) {
      io.stderr.write(`oceancode run: ${visible((e as Error).message)}\n`);
      return 2;
    }
    // a prompt that could never be sent (no API key): no session is started, and a resumed one is left as it was
    if (unready) {
      io.stderr.write(`oceancode run: ${visible(unready)}\n`);
      return 1;
    }
  }

  let session: Session;
  try {
    if (args.session) session = await engine.openSession(args.session, { wait: args.wait });
    else if (args.continue) {
      const id = await engine.latestSessionId(kernel.paths.project);
      if (!id) {
        const trouble = await storageTrouble(kernel);
        io.stderr.write(`oceancode run: --continue: ${trouble ?? `no earlier session in ${kernel.paths.project}`}\n`);
        return 1;
      }
      session = await engine.openSession(id, { wait: args.wait });
    } else {
      session = await engine.createSession({ cwd: kernel.paths.project, model: args.model ?? newSessionModel(kernel), overrides });
    }
  } catch (e) {
    io.stderr.write(`oceancode run: ${(await storageTrouble(kernel)) ?? visible((e as Error).message)}\n`);
    // another process holds the session: a usage-level refusal the caller can retry (or pass --wait)
    return isSessionBusy(e) ? 2 : 1;
  }
  const resumed = Boolean(args.session || args.continue);
  if (args.model && (args.session || args.continue)) session.info.model = args.model;
  if (args.tideline !== undefined && (args.session || args.continue)) session.info.overrides.tideline = args.tideline;
  if (args.maxSteps !== undefined && (args.session || args.continue)) session.info.overrides.max_steps = Number(args.maxSteps);
  if (args.session || args.continue) Object.assign(session.info.overrides, bounds);
  if (args.agent !== undefined && (args.session || args.continue)) {
    if (args.agent === "plan") session.info.overrides.agent = "plan";
    else delete session.info.overrides.agent;
  }

  // Claude Code's shapes: stream-json writes each message as one line when it is made; json and text print
  // the result (the whole object, or its final answer) at the end
  let stdoutGone: () => boolean = () => false;
  let stream: ClaudeStream | undefined;
  if (claude) {
    const model = await engine.describeModel(session.info.model).catch(() => undefined);
    const info = model ?? { id: session.info.model, provider: "", name: session.info.model.split("/").slice(1).join("/"), contextWindow: 0, maxOutputTokens: 0, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, known: false };
    stream = new ClaudeStream(session, info, (m: ClaudeMessage) => {
      if (claude === "stream-json" && !stdoutGone()) io.stdout.write(`${safeJson(m)}\n`);
    });
    if (claude === "stream-json") stream.init(await claudeInitFacts(kernel, engine, session, { auto: args.auto, env: io.env, version: opts.version ?? "" }));
  }
  /** json: the result object; text: its final answer (an error's words are on stderr already) */
  const printResult = (r: ClaudeResult) => {
    if (claude === "json") io.stdout.write(`${safeJson(r)}\n`);
    else if (claude === "text" && !r.is_error && r.result) io.stdout.write(`${visible(r.result)}${r.result.endsWith("\n") ? "" : "\n"}`);
  };

  // `run "/undo"`, `run -c "/limits usd 5"`: a registered slash command runs against the session instead of
  // a prompt (a skill's `/name` is not one: it goes to the model as typed). Refusals exit 1.
  const slash = input ? null : /^\/([A-Za-z0-9:_-]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim());
  if (slash) {
    let failed: string | undefined;
    const replies: string[] = [];
    stream?.beginPrompt();
    const handled = await kernel.runSlash(slash[1]!, (slash[2] ?? "").trim(), {
      sessionId: session.info.id,
      cwd: kernel.paths.project,
      reply: (t: string) => (stream ? replies.push(t) : io.stdout.write(`${visible(t)}\n`)),
      fail: (t: string) => {
        failed = t;
        io.stderr.write(`oceancode run: ${visible(t)}\n`);
      },
    });
    if (handled) {
      if (stream) printResult(stream.result({ turn: session.totals.turns, reason: failed === undefined ? "end_turn" : "error", text: replies.join("\n"), ...(failed !== undefined ? { error: failed } : {}) }));
      await engine.closeSession(session, "exit");
      io.stderr.write(`session: ${session.info.id}\n`);
      return failed !== undefined ? 1 : 0;
    }
  }

  // no person answers this session: extensions that care read it (the host names none of them)
  session.driver = { headless: true, auto: args.auto };
  // No person answers here: a reject says so (never "the user rejected"), and --auto approves only the
  // asks that allow an automatic approver (the shell guard's asks carry autoApprove: false).
  // An --auto yes is automatic (no person looked): the command it approves runs confined (docs/sandbox.md).
  engine.setQuestionHandler(async (q): Promise<AutomaticApproval | Rejection> => {
    if (!args.auto) return { answer: "reject", by: "oceancode run", reason: `rejected: run without --auto (${q.reason})` };
    if (q.autoApprove === false) return { answer: "reject", by: "oceancode run --auto", reason: `rejected: --auto approves rule asks only; this one needs a person to approve it (${q.reason})` };
    return { answer: "once", automatic: true, source: "auto", by: "oceancode run --auto" };
  });
  const controller = new AbortController();
  // SIGINT (ctrl+c), SIGTERM (kill, a supervisor) and SIGHUP (the terminal went away) stop the turn the same
  // way: the engine aborts it (the bash tool kills its process group), the turn is stored as interrupted, the
  // session is closed whole, and the exit code is 128 + the signal's number. A second signal forces the exit
  // (the tools' exit hook SIGKILLs every process group left); so does a turn that has not stopped in time.
  let stoppedBy: NodeJS.Signals | undefined;
  let forceTimer: NodeJS.Timeout | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (stoppedBy) {
      safeWrite(io.stderr, `\noceancode run: ${sig} again: exiting now\n`);
      process.exit(exitCodeOf(sig));
    }
    stoppedBy = sig;
    safeWrite(io.stderr, `\noceancode run: ${sig === "SIGINT" ? "interrupted" : `${sig}`}; stopping the turn and its processes (again to force)\n`);
    controller.abort();
    forceTimer = setTimeout(() => {
      safeWrite(io.stderr, `oceancode run: the turn did not stop within ${SIGNAL_GRACE_MS / 1000} s of ${sig}: exiting now\n`);
      process.exit(exitCodeOf(sig));
    }, SIGNAL_GRACE_MS);
    forceTimer.unref();
  };
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  // the reader of stdout went away (`run --format json | head -1`): the turn stops as if interrupted, the
  // session is stored whole, and the run exits quietly with 141 (128 + SIGPIPE), as a POSIX tool would
  stdoutGone = watchPipe(io.stdout, () => controller.abort());

  let lastWasText = false;
  /** the last character written of the streamed text (to start a marker on a fresh line) */
  let lastChar = "";
  const text = new VisibleStream();
  const endText = () => {
    const held = text.end();
    if (held) io.stdout.write(held);
  };
  const onEvent = (e: SessionEvent) => {
    // nobody reads the stream any more (the EPIPE comes back a tick after the write: the turn stops at the
    // step boundary after it); the session keeps every event
    if (stdoutGone()) return;
    if (json) {
      io.stdout.write(`${safeJson(e)}\n`); // exact once parsed; no raw C1/bidi character for a terminal to act on
      return;
    }
    if (stream) {
      // stdout carries Claude's shapes; notices and ask verdicts are for people, on stderr
      stream.onEvent(e);
      if (e.type === "notice") io.stderr.write(`oceancode: ${e.level === "info" ? "" : `${e.level}: `}${visible(e.text)}\n`);
      else if (e.type === "question") io.stderr.write(`oceancode: ${visibleLine(`${e.question.tool} asks (${e.question.reason})`)}: ${questionOutcome(e.question, args.auto)}\n`);
      return;
    }
    switch (e.type) {
      case "text_delta": {
        const out = text.push(e.text);
        io.stdout.write(out);
        if (out) lastChar = out[out.length - 1]!;
        lastWasText = true;
        break;
      }
      case "discard":
        // the text above was not stored: say so where it was printed, then the answer streams anew
        endText();
        io.stdout.write(`${lastWasText && lastChar !== "\n" ? "\n" : ""}[${e.reason === "retry" ? "retrying" : "discarded"}: ${discardCauseText(e.cause)}]\n`);
        lastWasText = false;
        lastChar = "\n";
        break;
      case "tool_call_start":
        endText();
        if (lastWasText) io.stdout.write("\n");
        lastWasText = false;
        io.stderr.write(`▸ ${visibleLine(`${e.call.name} ${JSON.stringify(e.call.input).slice(0, 200)}`)}\n`);
        break;
      case "tool_call_end":
        if (e.result.isError) {
          // the last line says most (bash ends with "exit code: N"; errors are one line)
          const lines = e.result.content.trimEnd().split("\n");
          io.stderr.write(`  ✗ ${visible(lines[lines.length - 1]!.slice(0, 200))}\n`);
        }
        break;
      case "notice":
        io.stderr.write(`oceancode: ${e.level === "info" ? "" : `${e.level}: `}${visible(e.text)}\n`);
        break;
      case "question":
        io.stderr.write(`oceancode: ${visibleLine(`${e.question.tool} asks (${e.question.reason})`)}: ${questionOutcome(e.question, args.auto)}\n`);
        break;
      default:
        break;
    }
  };
  if (json) io.stdout.write(`${safeJson({ type: "session", sessionId: session.info.id, model: session.info.model })}\n`);
  let result;
  /** a turn of several (--input-format stream-json) failed, or a later stdin line was bad */
  let failed = false;
  let blocked = true;
  try {
    for (let text = prompt; ; ) {
      stream?.beginPrompt();
      result = await engine.prompt(session, text, { signal: controller.signal, onEvent });
      if (result.reason === "error" || result.reason === "blocked") failed = true;
      if (result.reason !== "blocked") blocked = false;
      if (stream) printResult(stream.result(result));
      if (!input || stoppedBy || stdoutGone() || result.reason === "aborted") break;
      // the next message is read only now: each is one turn of this session, in order, until EOF
      const next = await nextOrAbort(input, controller.signal);
      if (next.kind === "end" || controller.signal.aborted) break;
      if (next.kind === "bad") {
        // what ran is stored; the bad line ends the stream with an error result naming it
        const why = `stdin line ${next.line}: ${next.error}`;
        io.stderr.write(`oceancode run: ${visible(why)}\n`);
        stream?.beginPrompt();
        printResult(stream!.result({ turn: session.totals.turns, reason: "error", text: "", error: why }, why));
        failed = true;
        break;
      }
      text = next.text;
    }
  } finally {
    for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
    clearTimeout(forceTimer);
  }
  if (!json && !stream) endText();
  if (!json && !stream && lastWasText) io.stdout.write("\n");
  await engine.closeSession(session, "exit");
  // a new session whose every prompt a hook blocked was never stored: no id to hand out
  if (!resumed && blocked && session.rows.length === 0) io.stderr.write("oceancode run: the prompt was blocked, so no session was stored\n");
  else io.stderr.write(`session: ${session.info.id}\n`);
  const trouble = await storageTrouble(kernel);
  if (trouble) {
    // never exit 0 for a session that is not stored: say where its transcript is (when it really is there)
    const where = await ledgerRecord(kernel, session.info.id);
    io.stderr.write(`oceancode run: session ${session.info.id} was not stored: ${trouble}; ${where}\n`);
    return 1;
  }
  if (stoppedBy) return exitCodeOf(stoppedBy);
  if (stdoutGone()) return EXIT_PIPE_GONE;
  if (failed) return 1;
  // interrupted (SIGINT): told apart from a failure, as a shell tells a ctrl+c'd process
  if (result.reason === "aborted") return EXIT_INTERRUPTED;
  return 0;
}
