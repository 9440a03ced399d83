/**
 * `/orchestrate <objective>`: goal mode inside a host's process (the pager's orchestrate). Each change is told as
 * a reply line (phase, round, open gaps, budget) and recorded in the run store like `oceancode goal`. In the
 * pager the run goes on in the background (`/orchestrate` shows it, `/orchestrate stop` stops it); a headless
 * host (`run "/orchestrate …"`) waits for the outcome and fails unless it completed.
 */
import type { SlashHost } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type EngineService } from "../engine/api.js";
import type { GoalBody } from "./api.js";
import { parseGoalArgs } from "./cli.js";
import { Usage } from "../../kernel/api.js";
import { GoalLoop } from "./loop.js";
import { GoalRecorder } from "./run.js";

export const ORCHESTRATE_USAGE = "/orchestrate [--budget <n>] <objective> | /orchestrate stop | /orchestrate";

export interface OrchestrateDeps {
  engine(): EngineService;
  configuredModel(): string | undefined;
  skeptics(): number;
  maxRounds(): number;
  hasPlanMode(): boolean;
  runsRoot: string;
  /** the data dir: the run store is under it (workflows' RunStore) */
  dataDir: string;
  project: string;
}

/** One line for a person: where the run is and what is open. */
export function describeBody(b: GoalBody): string {
  const budget = `${b.budget.spent}${b.budget.limit !== null ? `/${b.budget.limit}` : ""} calls`;
  const head = b.terminal ? `goal ${b.status}` : `goal ${b.phase}${b.round ? ` round ${b.round}` : ""}`;
  const gaps = b.gaps.length ? `; open gaps: ${b.gaps.join("; ")}` : "";
  const said = b.terminal && b.error ? b.error : b.progress?.replace(/^round \d+: /, "");
  const why = said ? `: ${said}` : "";
  return `${head}${why}${gaps} (${budget})`;
}

export interface Orchestrate {
  handler(args: string, host: SlashHost): Promise<void>;
  /** stop a goal still running (the host is shutting down): it ends cancelled, its terminal body recorded */
  stop(): Promise<void>;
}

export function orchestrateSlash(deps: OrchestrateDeps): Orchestrate {
  let live: { ctl: AbortController; last?: GoalBody; done: Promise<void> } | undefined;
  const stop = async () => {
    const l = live;
    if (!l) return;
    l.ctl.abort();
    await l.done;
  };
  const handler = async (args: string, host: SlashHost) => {
    const fail = (t: string) => (host.fail ? host.fail(t) : host.reply(t));
    const words = args.trim() ? args.trim().split(/\s+/) : [];
    if (words.length === 0) {
      host.reply(live?.last ? describeBody(live.last) : live ? "goal: starting" : `no goal is running here (${ORCHESTRATE_USAGE})`);
      return;
    }
    if (words.length === 1 && words[0] === "stop") {
      if (!live) return fail("no goal is running here");
      return stop();
    }
    if (live) return fail("a goal is already running here: /orchestrate shows it, /orchestrate stop stops it");
    let parsed;
    try {
      parsed = parseGoalArgs(words);
    } catch (e) {
      if (Usage.is(e)) return fail(`${e.message}\nusage: ${ORCHESTRATE_USAGE}`);
      throw e;
    }
    if (!parsed.objective) return fail(`an objective is required\nusage: ${ORCHESTRATE_USAGE}`);
    if (!deps.hasPlanMode()) return fail("the skeptics run read-only in plan mode, and the plan-mode extension is not enabled");
    const engine = deps.engine();
    const current = (host as { currentModel?: () => string }).currentModel?.();
    let model: string;
    try {
      model = engine.resolveModel(parsed.model ?? current ?? deps.configuredModel() ?? DEFAULT_MODEL_ID);
    } catch (e) {
      return fail((e as Error).message);
    }
    const project = (host as { cwd?: unknown }).cwd;
    const cwd = typeof project === "string" && project ? project : deps.project;
    const ctl = new AbortController();
    const state: { ctl: AbortController; last?: GoalBody; done: Promise<void> } = { ctl, done: Promise.resolve() };
    const rec = new GoalRecorder(deps.dataDir, parsed.objective, (b) => {
      state.last = b;
      host.reply(describeBody(b));
    });
    try {
      rec.start(cwd);
    } catch (e) {
      return fail(`cannot write the run store under ${deps.runsRoot}: ${(e as Error).message}`);
    }
    live = state;
    const loop = new GoalLoop(engine, { objective: parsed.objective, project: cwd, model, budget: parsed.budget, skeptics: deps.skeptics(), maxRounds: deps.maxRounds(), signal: ctl.signal }, (s) => rec.record(s));
    let outcomeStatus = "failed";
    state.done = loop
      .run()
      .then((outcome) => {
        outcomeStatus = outcome.status;
        rec.record(loop.snapshot(), outcome.status, outcome);
        host.reply(`goal run ${rec.runId}${rec.trouble ? ` (run store incomplete: ${rec.trouble})` : ""}`);
      })
      .catch((e: unknown) => host.reply(`goal: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        live = undefined;
      });
    // the pager keeps taking input while the goal runs; a headless host waits for the outcome
    if ((host as { hostKind?: string }).hostKind === "pager") return;
    await state.done;
    if (outcomeStatus !== "complete") fail(`goal ended ${outcomeStatus}`);
  };
  return { handler, stop };
}
