/**
 * Point 5, `tool_tiers` (config key jev.tools): how many tools beyond the core set a prompt needs, and
 * which. At the first model request of a prompt, when more than four tools outside the core set are
 * offered, Jev is asked a noul (needs_more_than_core) and a wide choice over the extra tools (the options
 * are "name: description"). The policy advertises 4 extras ("narrow"), or 8 ("wide") when the noul reaches
 * jev.thresholds.needs_more_than_core (0.6), the most likely first. act: the request offers the core set
 * plus the kept extras, and `tool_search` (registered here) finds and adds a hidden one. Keep-sets are
 * sticky (advise.ts): decided at the session's first prompt, reused without a request by a prompt sharing
 * vocabulary with the previous one (one acted "sticky" row), grown by a prompt that does not. shadow: every
 * prompt is asked in the background and recorded; nothing changes. Taps engine.modelRequest at -150: after
 * the MCP tool set (-250) and the permission and plan-mode filters (STAGE_POLICY), before the providers.
 */
import type { ExtensionContext } from "../../../kernel/api.js";
import type { EngineService, ModelRequest, StepContext, ToolDefinition, ToolSpec } from "../../engine/api.js";
import type { JevAnswer, JevQuestion, JevService, JevState } from "../api.js";
import { clip, decide, promptOfTurn, recordSticky, stickyStep, type KeepSet, type Verdict } from "./advise.js";

/** The name of the escape tool: search the tools the tier left out and add them to the session's set. */
export const TOOL_SEARCH = "tool_search";

/**
 * The core set, always offered: the file and shell tools, the loaders (skill, todo_write, plan_exit) and
 * the escapes (tool_search, the MCP meta tools search_tool / use_tool). Everything else is an extra.
 */
export const CORE_TOOLS: readonly string[] = [
  "read", "write", "edit", "bash", "grep", "glob", "ls", "job_output", "job_kill",
  "skill", "todo_write", "plan_exit", TOOL_SEARCH, "search_tool", "use_tool",
];
const CORE = new Set(CORE_TOOLS);

export const TOOL_TIERS_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  needs_more_than_core: {
    type: "noul",
    instructions:
      "The agent always has the core tools in `core` (reading, writing and editing files, a shell, search). Does the user's request in `prompt` need a tool beyond them, such as the ones in `extras`?",
    criteria: { true: "the request needs a tool outside the core set", false: "the core tools are enough for the request" },
  },
  extras: {
    type: "choice",
    instructions: "Which of the extra tools (the options, each `name: description`) is the user's request in `prompt` most likely to need?",
    options: ["<name>: <description>, one per tool outside the core set, up to 255"],
  },
};

export const EXTRAS_NARROW = 4;
export const EXTRAS_WIDE = 8;
export type ToolTiersThresholds = {
  /** the noul needed to advertise EXTRAS_WIDE extras instead of EXTRAS_NARROW (default 0.6) */
  needs_more_than_core: number;
};
export const TOOL_TIERS_DEFAULTS: ToolTiersThresholds = { needs_more_than_core: 0.6 };

/** An option's text for a tool (the name first, so the policy maps it back). */
export function toolOption(t: Pick<ToolSpec, "name" | "description">): string {
  const d = t.description.replace(/\s+/g, " ").trim();
  return `${t.name}: ${d.length > 150 ? `${d.slice(0, 147)}...` : d}`;
}
const nameOf = (option: string): string => option.slice(0, Math.max(0, option.indexOf(":"))) || option;

/** The policy: "narrow" (4 extras) or "wide" (8) by the noul; the extras most likely first. */
export function toolTiersPolicy(answers: Readonly<Record<string, JevAnswer>>, t: ToolTiersThresholds = TOOL_TIERS_DEFAULTS): Verdict<string[]> {
  const need = answers.needs_more_than_core;
  const choice = answers.extras;
  if (!need || need.type !== "noul" || !choice || choice.type !== "choice") return { verdict: "all" };
  const wide = need.noul >= t.needs_more_than_core;
  const n = wide ? EXTRAS_WIDE : EXTRAS_NARROW;
  const ranked = Object.entries(choice.probabilities)
    .sort((a, b) => b[1] - a[1])
    .map(([o]) => nameOf(o));
  if (!ranked.includes(nameOf(choice.choice))) ranked.unshift(nameOf(choice.choice));
  const picked = ranked.slice(0, n);
  return { verdict: `${wide ? "wide" : "narrow"};extra:${picked.join(",")}`, value: picked };
}

export function toolTiersState(prompt: string, core: readonly string[], extras: readonly ToolSpec[]): JevState {
  return { prompt: clip(prompt, 8_000), core: [...core], extras: extras.map((t) => t.name) };
}

interface TiersSession extends KeepSet {
  /** the turn whose first request was decided (once per prompt) */
  turn?: number;
}
const KEY = "jev:tool_tiers";
const stateOf = (s: { ext: Map<string, unknown> }): TiersSession => {
  let st = s.ext.get(KEY) as TiersSession | undefined;
  if (!st) s.ext.set(KEY, (st = {}));
  return st;
};

function toolSearch(engine: EngineService, sessions: Map<string, TiersSession>): ToolDefinition {
  return {
    name: TOOL_SEARCH,
    kind: "search",
    description:
      "Find a tool that is not in your tool list (only some tools are offered per prompt): search the others by words of their name or description. Matching tools are added to your list from your next step on.",
    inputSchema: { type: "object", properties: { query: { type: "string", description: "words to look for" } }, required: ["query"] },
    async run(input, tctx) {
      const words = String(input.query ?? "").toLowerCase().split(/\W+/).filter((w) => w.length >= 3);
      const st = sessions.get(tctx.session.id);
      const hidden = engine.tools.list().filter((t) => !CORE.has(t.name) && !(st?.names?.has(t.name) ?? true));
      const hits = hidden.filter((t) => words.some((w) => `${t.name} ${t.description}`.toLowerCase().includes(w))).slice(0, 8);
      if (!hits.length) return { content: `no hidden tool matches '${String(input.query ?? "")}'${hidden.length ? `; hidden: ${hidden.map((t) => t.name).join(", ")}` : "; every tool is already offered"}` };
      for (const h of hits) st?.names?.add(h.name);
      return { content: `added to your tools from the next step:\n${hits.map((h) => `- ${toolOption(h)}`).join("\n")}` };
    },
  };
}

export function installToolTiers(ctx: ExtensionContext, jev: JevService): void {
  const engine = ctx.services.get("engine");
  const live = new Map<string, TiersSession>();
  if (!engine.tools.get(TOOL_SEARCH)) engine.tools.register(toolSearch(engine, live), ctx.id);
  engine.hooks.sessionEnd.tap({ name: ctx.id }, ({ session }) => void live.delete(session.info.id));
  engine.hooks.modelRequest.tap({ name: ctx.id, stage: "tiers" }, async (req: ModelRequest, step: StepContext): Promise<ModelRequest> => {
    // a sub-agent's tools are its profile's allow-list: the tier leaves them alone
    const mode = step.session.info.parentId ? "off" : jev.mode("tool_tiers");
    const st = stateOf(step.session);
    live.set(step.session.info.id, st);
    // tool_search is only for a session whose tools the tier narrowed
    const base = mode === "act" && st.names ? req.tools : req.tools.filter((t) => t.name !== TOOL_SEARCH);
    if (mode === "off") return base === req.tools ? req : { ...req, tools: base };
    const extras = base.filter((t) => !CORE.has(t.name));
    if (step.step === 1 && st.turn !== step.turn && extras.length > EXTRAS_NARROW) {
      st.turn = step.turn;
      const prompt = promptOfTurn(step.session.rows, step.turn) ?? "";
      const sid = step.session.info.id;
      const sticky = mode === "act" ? stickyStep(st, prompt) : "decide";
      if (sticky === "reuse") recordSticky(jev, "tool_tiers", sid, prompt, st.names ?? []);
      else {
        const offered = extras.slice(0, 255);
        const t: ToolTiersThresholds = { needs_more_than_core: jev.threshold("needs_more_than_core", TOOL_TIERS_DEFAULTS.needs_more_than_core) };
        const d = await decide(jev, {
          point: "tool_tiers",
          sessionId: sid,
          state: toolTiersState(prompt, CORE_TOOLS.filter((n) => base.some((b) => b.name === n)), offered),
          questions: { needs_more_than_core: TOOL_TIERS_QUESTIONS.needs_more_than_core!, extras: { ...(TOOL_TIERS_QUESTIONS.extras as Extract<JevQuestion, { type: "choice" }>), options: offered.map(toolOption) } },
          baseline: "all",
          policy: (a) => toolTiersPolicy(a, t),
          signal: step.signal,
        });
        if (d.value) {
          st.names ??= new Set();
          for (const n of d.value) st.names.add(n);
        }
      }
    }
    if (mode !== "act" || !st.names) return base === req.tools ? req : { ...req, tools: base };
    const withSearch = req.tools.filter((t) => CORE.has(t.name) || st.names!.has(t.name));
    return { ...req, tools: withSearch };
  });
}
