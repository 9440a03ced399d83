/**
 * `oceancode goal [--budget <n>] [-m <model>] [--auto] "<objective>"`: boots the engine like run, runs the goal
 * loop, streams one goal_updated body per change as a JSON line (the last one terminal) and appends each to
 * the run store. Exit: 0 complete; 2 failed, interrupted, budget_limited (and usage errors); 3 a pause.
 */
import type { CommandIO } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type AutomaticApproval, type EngineService, type Rejection } from "../engine/api.js";
import { type GoalOptions, type GoalOutcome } from "./api.js";
import { exitCodeOf } from "./kit/shared.js";
import { GoalLoop } from "./loop.js";
import { GoalRecorder } from "./run.js";
import { Usage } from "../../kernel/api.js";

export const GOAL_USAGE = 'usage: oceancode goal "<objective>" [--budget <n>] [-m <provider/model>] [--auto] [--db <path>] [--directory <dir>] [-v]';

export interface GoalArgs {
  objective: string;
  budget: number | null;
  model?: string;
  auto: boolean;
  help: boolean;
}

/** Flags come first; the words after them are the objective (Go-style: parsing stops at the first positional). */
export function parseGoalArgs(argv: readonly string[]): GoalArgs {
  const out: GoalArgs = { objective: "", budget: null, auto: false, help: false };
  let i = 0;
  const value = (flag: string, inline: string | undefined): string => {
    const v = inline ?? argv[++i];
    if (v === undefined || v === "") throw Usage({ message: `${flag} needs a value` });
    return v;
  };
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    if (flag === "--budget") {
      const raw = value(flag, inline);
      if (!/^[1-9][0-9]*$/.test(raw)) throw Usage({ message: `--budget must be a whole number of model calls above 0 (got '${raw}')` });
      out.budget = Number(raw);
    } else if (flag === "-m" || flag === "--model") out.model = value(flag, inline);
    else if (flag === "--auto") out.auto = true;
    else if (flag === "-h" || flag === "--help") out.help = true;
    else throw Usage({ message: `unknown flag '${a}' (flags go before the objective)` });
  }
  out.objective = argv.slice(i).join(" ").trim();
  return out;
}

export interface GoalDeps {
  engine: () => Promise<EngineService>;
  /** the configured model (--model before the command, $OC_MODEL, config files) */
  configuredModel(): string | undefined;
  skeptics: number;
  maxRounds: number;
  hasPlanMode(): boolean;
  runsRoot: string;
  /** the data dir: the run store is under it (workflows' RunStore) */
  dataDir: string;
}

export async function goalCommand(argv: string[], io: CommandIO, deps: GoalDeps): Promise<number> {
  let args: GoalArgs;
  const usage = (msg: string) => {
    io.stderr.write(`oceancode goal: ${msg}\n${GOAL_USAGE}\n`);
    return 2;
  };
  try {
    args = parseGoalArgs(argv);
  } catch (e) {
    if (Usage.is(e)) return usage(e.message);
    throw e;
  }
  if (args.help) {
    io.stdout.write(`${GOAL_USAGE}\n`);
    return 0;
  }
  if (!args.objective) return usage("an objective is required");
  if (!deps.hasPlanMode()) {
    io.stderr.write("oceancode goal: the skeptics run read-only in plan mode, and the plan-mode extension is not enabled\n");
    return 2;
  }
  const engine = await deps.engine();
  let model: string;
  try {
    model = engine.resolveModel(args.model ?? deps.configuredModel() ?? DEFAULT_MODEL_ID);
    const unready = await engine.checkModel(model);
    if (unready) {
      io.stderr.write(`oceancode goal: ${unready}\n`);
      return 2;
    }
  } catch (e) {
    return usage((e as Error).message);
  }

  const rec = new GoalRecorder(deps.dataDir, args.objective, (b) => io.stdout.write(`${JSON.stringify(b)}\n`));
  try {
    rec.start(io.project);
  } catch (e) {
    io.stderr.write(`oceancode goal: cannot write the run store under ${deps.runsRoot}: ${(e as Error).message}\n`);
    return 2;
  }

  // the worker's asks: as run --auto does (only those that allow an automatic approver), else rejected
  engine.setQuestionHandler(async (q): Promise<AutomaticApproval | Rejection> => {
    if (!args.auto) return { answer: "reject", by: "oceancode goal", reason: `rejected: goal without --auto (${q.reason})` };
    if (q.autoApprove === false) return { answer: "reject", by: "oceancode goal --auto", reason: `rejected: --auto approves rule asks only (${q.reason})` };
    return { answer: "once", automatic: true, source: "auto", by: "oceancode goal --auto" };
  });
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(2);
    io.stderr.write(`\noceancode goal: ${sig === "SIGINT" ? "interrupted" : sig}; stopping the run (again to force)\n`);
    controller.abort();
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const s of signals) process.on(s, onSignal);
  const options: GoalOptions = {
    objective: args.objective,
    project: io.project,
    model,
    budget: args.budget,
    skeptics: deps.skeptics,
    maxRounds: deps.maxRounds,
    signal: controller.signal,
    // headless, as run is: no person answers (extensions that care read session.driver)
    onSession: (s) => void (s.driver = { headless: true, auto: args.auto }),
  };
  const loop = new GoalLoop(engine, options, (s) => rec.record(s));
  let outcome: GoalOutcome;
  try {
    outcome = await loop.run();
  } finally {
    for (const s of signals) process.off(s, onSignal);
    engine.setQuestionHandler(undefined);
  }
  rec.record(loop.snapshot(), outcome.status, outcome);
  if (rec.trouble) io.stderr.write(`oceancode goal: warning: the run store under ${deps.runsRoot} is incomplete: ${rec.trouble}\n`);
  if (outcome.status !== "complete" && outcome.error) io.stderr.write(`oceancode goal: ${outcome.status}: ${outcome.error}\n`);
  io.stderr.write(`run: ${rec.runId}\n`);
  return exitCodeOf(outcome.status);
}
