/**
 * `oceancode workflow run|runs|pause|resume|stop`. run streams one JSON line per body on stdout (the last
 * is the terminal one) and exits by the outcome: 0 complete, 2 failed/cancelled/budget_limited (and usage
 * errors), 3 a pause. Warnings and script logs go to stderr.
 */
import { parseArgs } from "node:util";
import { type CommandIO } from "../../kernel/api.js";
import { safeJson, visible } from "../obs/kit.js";
import type { AutomaticApproval, EngineService, Rejection } from "../engine/api.js";
import { exitCodeOf } from "./kit/shared.js";
import type { Workflows } from "./service.js";

export const WORKFLOW_USAGE = [
  "usage: oceancode workflow run <name|path> [--args <json>] [--budget <n>] [--validate-only] [-m <provider/model>] [--auto] [--max-usd <n>] [--max-minutes <n>]",
  "       oceancode workflow runs [--all] [--directory <dir>]",
  "       oceancode workflow list",
  "       oceancode workflow pause|resume|stop <run_id> [--budget <n>]",
].join("\n");

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function budgetOf(raw: string | undefined): number | null | "bad" {
  if (raw === undefined) return null;
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : "bad";
}

export async function workflowCommand(argv: string[], io: CommandIO, wf: Workflows, engine: () => Promise<EngineService>): Promise<number> {
  const bad = (msg: string) => {
    io.stderr.write(`oceancode workflow: ${visible(msg)}\n${WORKFLOW_USAGE}\n`);
    return 2;
  };
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    if (sub === undefined) return bad("a subcommand is required (run, runs, list, pause, resume, stop)");
    io.stdout.write(`${WORKFLOW_USAGE}\n`);
    return 0;
  }
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: {
        args: { type: "string" },
        budget: { type: "string" },
        "validate-only": { type: "boolean" },
        model: { type: "string", short: "m" },
        auto: { type: "boolean" },
        "max-usd": { type: "string" },
        "max-minutes": { type: "string" },
        all: { type: "boolean" },
        directory: { type: "string" },
        dir: { type: "string" },
        db: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    return bad((e as Error).message);
  }
  const budget = budgetOf(values.budget as string | undefined);
  if (budget === "bad") return bad(`--budget must be a whole number above 0 (model calls), got '${String(values.budget)}'`);

  const bounds: { maxUsd?: number; maxMinutes?: number } = {};
  for (const [flag, key] of [["max-usd", "maxUsd"], ["max-minutes", "maxMinutes"]] as const) {
    const raw = values[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) return bad(`--${flag} must be a number above 0 (got '${String(raw)}')`);
    bounds[key] = n;
  }

  switch (sub) {
    case "runs": {
      if (positionals.length) return bad(`runs takes no argument (got ${positionals.join(" ")})`);
      for (const r of wf.store.list(values.all ? undefined : io.project)) {
        io.stdout.write(`${safeJson(r.latest ?? { type: r.meta.kind === "goal" ? "goal_updated" : "workflow_updated", run_id: r.meta.run_id, workflow: r.meta.workflow, status: "running", terminal: false })}\n`);
      }
      return 0;
    }
    case "list": {
      const found = await wf.discover(io.project);
      for (const w of found.warnings) io.stderr.write(`oceancode workflow: warning: ${visible(w)}\n`);
      for (const e of found.entries) io.stdout.write(`${safeJson({ name: e.name, description: e.description, source: e.source, ...(e.file ? { file: e.file } : {}), trusted: e.trusted })}\n`);
      return 0;
    }
    case "pause":
    case "resume":
    case "stop": {
      if (positionals.length !== 1) return bad(`${sub} takes one run id`);
      const id = positionals[0]!;
      const ok = sub === "pause" ? wf.pause(id) : sub === "stop" ? wf.stop(id) : wf.resume(id, budget === null ? {} : { budget });
      if (ok) return 0;
      const known = wf.store.read(id);
      if (!known) {
        io.stderr.write(`oceancode workflow: no run '${visible(id)}' (list them with oceancode workflow runs --all)\n`);
        return 2;
      }
      const last = known.bodies[known.bodies.length - 1];
      const state = last?.terminal ? `it already ended (${last.status})` : `it lives in another process (pid ${known.meta.pid}); a run launched by a separate oceancode workflow run is controlled only from that process`;
      io.stderr.write(`oceancode workflow: cannot ${sub} ${visible(id)}: ${state}\n`);
      return 2;
    }
    case "run":
      break;
    default:
      return bad(`unknown subcommand '${sub}'`);
  }

  if (positionals.length !== 1) return bad(positionals.length === 0 ? "a workflow name or path is required" : `one workflow only (got ${positionals.join(" ")}); put flags after the name`);
  let args: unknown = null;
  if (values.args !== undefined) {
    try {
      args = JSON.parse(values.args as string);
    } catch (e) {
      return bad(`--args is not JSON: ${(e as Error).message}`);
    }
  }
  const warn = (w: string) => io.stderr.write(`oceancode workflow: warning: ${visible(w)}\n`);
  let target;
  try {
    target = await wf.resolve(positionals[0]!, io.project, warn);
  } catch (e) {
    return bad((e as Error).message);
  }
  const invalid = await wf.validate(target, args);
  if (invalid) {
    io.stderr.write(`oceancode workflow: ${visible(invalid)}\n`);
    return 2;
  }
  if (values["validate-only"]) {
    io.stderr.write(`oceancode workflow: ${target.kind === "builtin" ? target.def.name : target.file}: valid\n`);
    return 0;
  }
  const eng = await engine();
  let model: string | undefined;
  if (values.model !== undefined) {
    try {
      model = eng.resolveModel(values.model as string);
    } catch (e) {
      return bad((e as Error).message);
    }
  }
  const auto = values.auto === true;
  // headless, as `oceancode run`: nobody answers; --auto approves rule asks that allow an automatic approver
  eng.setQuestionHandler(async (q): Promise<AutomaticApproval | Rejection> => {
    if (!auto) return { answer: "reject", by: "oceancode workflow", reason: `rejected: workflow run without --auto (${q.reason})` };
    if (q.autoApprove === false) return { answer: "reject", by: "oceancode workflow --auto", reason: `rejected: --auto approves rule asks only; this one needs a person (${q.reason})` };
    return { answer: "once", automatic: true, source: "auto", by: "oceancode workflow --auto" };
  });
  const controller = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) process.exit(2);
    signalled = sig;
    io.stderr.write(`\noceancode workflow: ${sig}: stopping the run (again to force)\n`);
    controller.abort();
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  try {
    const last = await wf.start(target, io.project, {
      args,
      budget,
      ...(model ? { model } : {}),
      auto,
      ...bounds,
      signal: controller.signal,
      onBody: (b) => io.stdout.write(`${safeJson(b)}\n`),
      log: (t) => io.stderr.write(`[workflow] ${visible(t)}\n`),
    });
    return exitCodeOf(last.status);
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
  }
}
