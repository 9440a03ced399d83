/**
 * Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): the ordered stages of
 * the engine's hooks that need more than the kernel's STANDARD_STAGES. A tap names one of its hook's
 * stages (`{ name: ctx.id, stage: "floor" }`); a bare number is refused when it taps. Load order breaks
 * ties within a stage. docs/architecture.md's hook-order tables are generated from these tables and the
 * taps of the bundled extensions (build/hook-tables.ts).
 */
import { defineStages } from "../../../kernel/api.js";

/**
 * authorizeToolCall (bail, fail-closed: the first answer wins, a deny is never reopened). Its phases in
 * call order. A PreToolUse hook runs once, in `hooks`: its deny answers there; its ask is held until
 * `hook-asks` and its rewrite's allow until `rewrites` (holdUntil), so a floor, a rule or the mode still
 * speaks first. Advisors (the permissions service's) run inside `rules`: they see its asks.
 */
export const AUTHORIZE_STAGES = defineStages(
  {
    mode: "plan mode: every call but reads, plan files and plan_exit is denied",
    hooks: "PreToolUse handlers: a deny is final; a rewrite replaces the input before anything below judges it",
    floor: "the dangerous-command floor: deny",
    grants: "allow only: a loaded skill's allowed-tools lifts a catch-all ask",
    rules: "permission rules and the permission mode (deny, ask); advisors see its asks",
    "hook-asks": "a PreToolUse ask held from `hooks` lands here",
    guard: "the shell guard's asks (no automatic approver may answer them)",
    asks: "last-resort asks: an MCP tool no rule names; a tap that names no stage",
    rewrites: "a PreToolUse rewrite held from `hooks` lands here: allow with the new input",
  },
  { default: "asks" },
);

/** userPrompt (waterfall): the user's prompt on its way to the first request. */
export const PROMPT_STAGES = defineStages(
  {
    trace: "observers that open the prompt's span before anything changes it",
    gate: "UserPromptSubmit hooks: block the prompt or add context",
    connect: "what the prompt waits for (the MCP servers it may use)",
    default: "slash commands, sub-agent notes; a tap that names no stage",
    enrich: "context added to the prompt (the memory block)",
    record: "records the prompt as it stands (the user turn, the plan floor)",
  },
  { default: "default" },
);

/** contextBuild (waterfall): the window of rows sent this step. */
export const WINDOW_STAGES = defineStages(
  {
    trace: "observers that open the step's span",
    cut: "rows that leave the window (turns /undo took back)",
    default: "the tideline cut and pointer line; a tap that names no stage",
    enrich: "blocks appended for the model (available skills, agents)",
    recall: "what is recalled into the window, after the blocks",
    notes: "anchored notes, last (a person's /plan edits, the plan reminder)",
  },
  { default: "default" },
);

/** modelRequest (waterfall): the provider request. */
export const REQUEST_STAGES = defineStages(
  {
    tools: "the tool set offered (the prompt's MCP tools)",
    policy: "tools removed by rules and modes; budgets that refuse the request",
    tiers: "tools narrowed or tiered",
    default: "provider-specific shaping; a tap that names no stage",
    enrich: "directives added (the planning directive)",
    observe: "reads the request as built",
    sent: "last: the request as sent (the cache keep-alive remembers it)",
  },
  { default: "default" },
);

/** executeTool (wrap): outermost first. */
export const EXECUTE_STAGES = defineStages(
  {
    measure: "outermost: the whole call's latency, outcome and span",
    mode: "plan mode refuses a plan write again, on the final input",
    confine: "the sandbox's confinement of a run no person approved",
    default: "a tap that names no stage",
    snapshot: "what the call will change is snapshotted (checkpoints)",
    client: "the client (ACP editor) runs reads, writes and terminals it offers",
    innermost: "innermost: times the tool alone, sees its own output",
  },
  { default: "default" },
);

/** toolResult (waterfall): a tool's output before the model sees it. */
export const RESULT_STAGES = defineStages(
  {
    shape: "the output's own form (points that rewrite it)",
    default: "a tap that names no stage",
    enrich: "context added (PostToolUse hooks, a directory's rules)",
    observe: "reads the result (a loaded skill's grant, triage)",
    final: "last: the final result (the hooks transcript)",
  },
  { default: "default" },
);

/** sessionStart (series): a session opened. */
export const SESSION_START_STAGES = defineStages(
  {
    store: "first: the session's row is queued before any tap records against it",
    prepare: "housekeeping before handlers run (old hook transcripts swept, notices)",
    retain: "retention: old sessions pruned",
    resume: "resume checks and crash markers",
    default: "a tap that names no stage",
    handlers: "SessionStart hooks",
    observe: "counts and traces",
  },
  { default: "default" },
);
