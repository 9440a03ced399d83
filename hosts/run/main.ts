/**
 * `oceancode run`: one headless turn. Boots the session extensions, opens or resumes a session, streams
 * events (text, or one JSON event per line with --format json), answers asks (--auto approves, otherwise
 * rejects and tells the model why). Exit codes: 0 done, 1 error, 2 usage.
 */
import type { Kernel } from "../../kernel/kernel.js";
import type { CommandIO } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type EngineService, type SessionEvent, type Session } from "../../extensions/engine/api.js";
import { parseRunArgs, RUN_USAGE, UsageError } from "./args.js";

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  let data = "";
  stdin.setEncoding("utf8");
  for await (const chunk of stdin) data += chunk as string;
  return data;
}

/** Sub-services a run may use when their extensions are present (types are structural, never imported code). */
interface TidelineLike {
  parseSpec?(text: string): unknown;
}
interface StorageLike {
  health?(): { ok: boolean; message?: string };
}
interface LedgerLike {
  enabled: boolean;
  dirOf(sessionId: string): string;
}

/** Why the session store is not keeping sessions (a damaged or unwritable database), if it says. */
async function storageTrouble(kernel: Kernel): Promise<string | undefined> {
  if (!kernel.hasService("storage")) return undefined;
  const h = (await kernel.service<StorageLike>("storage")).health?.();
  return h && !h.ok ? (h.message ?? "the session database did not take every write") : undefined;
}

export async function main(kernel: Kernel, argv: string[], io: CommandIO): Promise<number> {
  let args;
  try {
    args = parseRunArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`oceancode run: ${e.message}\n${RUN_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  for (const w of args.warnings) io.stderr.write(`oceancode run: warning: ${w}\n`);
  let prompt = args.prompt;
  if (!io.stdin.isTTY) {
    const piped = await readStdin(io.stdin);
    if (piped.trim()) prompt = prompt ? `${prompt}\n\n${piped}` : piped;
  }
  if (!prompt.trim() && !args.continue && !args.session) {
    io.stderr.write(`oceancode run: no message given\n${RUN_USAGE}\n`);
    return 2;
  }
  if (args.maxSteps !== undefined) {
    if (!/^\d+$/.test(args.maxSteps) || Number(args.maxSteps) === 0) {
      io.stderr.write(`oceancode run: --max-steps must be a whole number above 0 (bound a long run with a budget or a clock instead)\n${RUN_USAGE}\n`);
      return 2;
    }
    io.env.OC_MAX_STEPS = args.maxSteps;
  }

  await kernel.activate("onSession");
  const engine = await kernel.service<EngineService>("engine");
  const overrides: Record<string, unknown> = {};
  if (args.tideline !== undefined) {
    if (kernel.hasService("tideline")) {
      const t = await kernel.service<TidelineLike>("tideline");
      try {
        t.parseSpec?.(args.tideline);
      } catch (e) {
        io.stderr.write(`oceancode run: ${(e as Error).message}\n${RUN_USAGE}\n`);
        return 2;
      }
    } else io.stderr.write("oceancode run: warning: --tideline ignored: the tideline extension is not enabled\n");
    overrides.tideline = args.tideline;
  }

  let session: Session;
  try {
    if (args.session) session = await engine.openSession(args.session);
    else if (args.continue) {
      const id = await engine.latestSessionId(kernel.paths.project);
      if (!id) {
        const trouble = await storageTrouble(kernel);
        io.stderr.write(`oceancode run: --continue: ${trouble ?? `no earlier session in ${kernel.paths.project}`}\n`);
        return 1;
      }
      session = await engine.openSession(id);
    } else {
      const model = args.model ?? (kernel.config.get("model") as string | undefined) ?? io.env.OC_MODEL ?? DEFAULT_MODEL_ID;
      session = await engine.createSession({ cwd: kernel.paths.project, model, overrides });
    }
  } catch (e) {
    io.stderr.write(`oceancode run: ${(await storageTrouble(kernel)) ?? (e as Error).message}\n`);
    return 1;
  }
  if (args.model && (args.session || args.continue)) session.info.model = args.model;
  if (args.tideline !== undefined && (args.session || args.continue)) session.info.overrides.tideline = args.tideline;

  engine.setQuestionHandler(async () => (args.auto ? "once" : "reject"));
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    io.stderr.write("\noceancode run: interrupted; stopping at the next step boundary (again to force)\n");
    controller.abort();
    if (interrupts > 1) process.exit(130);
  };
  process.on("SIGINT", onSigint);

  const json = args.format === "json";
  let lastWasText = false;
  const onEvent = (e: SessionEvent) => {
    if (json) {
      io.stdout.write(`${JSON.stringify(e)}\n`);
      return;
    }
    switch (e.type) {
      case "text_delta":
        io.stdout.write(e.text);
        lastWasText = true;
        break;
      case "tool_call_start":
        if (lastWasText) io.stdout.write("\n");
        lastWasText = false;
        io.stderr.write(`▸ ${e.call.name} ${JSON.stringify(e.call.input).slice(0, 200)}\n`);
        break;
      case "tool_call_end":
        if (e.result.isError) {
          // the last line says most (bash ends with "exit code: N"; errors are one line)
          const lines = e.result.content.trimEnd().split("\n");
          io.stderr.write(`  ✗ ${lines[lines.length - 1]!.slice(0, 200)}\n`);
        }
        break;
      case "notice":
        io.stderr.write(`oceancode: ${e.level === "info" ? "" : `${e.level}: `}${e.text}\n`);
        break;
      case "question":
        io.stderr.write(`oceancode: ${e.question.tool} asks (${e.question.reason}): ${args.auto ? "approved by --auto" : "rejected (run without --auto; rerun with --auto to approve)"}\n`);
        break;
      default:
        break;
    }
  };
  if (json) io.stdout.write(`${JSON.stringify({ type: "session", sessionId: session.info.id, model: session.info.model })}\n`);
  let result;
  try {
    result = await engine.prompt(session, prompt, { signal: controller.signal, onEvent });
  } finally {
    process.off("SIGINT", onSigint);
  }
  if (!json && lastWasText) io.stdout.write("\n");
  await engine.closeSession(session, "exit");
  io.stderr.write(`session: ${session.info.id}\n`);
  const trouble = await storageTrouble(kernel);
  if (trouble) {
    // never exit 0 for a session that is not stored: say where its transcript is
    const ledger = kernel.hasService("ledger") ? await kernel.service<LedgerLike>("ledger") : undefined;
    const where = ledger?.enabled ? `its transcript is in ${ledger.dirOf(session.info.id)}/transcript/` : "the ledger is off, so nothing of it is on disk";
    io.stderr.write(`oceancode run: session ${session.info.id} was not stored: ${trouble}; ${where}\n`);
    return 1;
  }
  if (result.reason === "error" || result.reason === "blocked") return 1;
  if (result.reason === "aborted") return 1;
  return 0;
}
