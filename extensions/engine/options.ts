/** What the engine is configured with: its options, and the step cap read from the config. */
import type { ModelNames } from "./kit/model-names.js";
import type { ObsService } from "../obs/api.js";
import { StepCapInvalid, StepCapZero, SubagentStepCapInvalid } from "./errors.js";

export interface EngineOptions {
  /** fire an activation event (providers load lazily on "onEvent:provider:<id>") */
  activate(event: string): Promise<void>;
  log: { warn(m: string, fields?: Record<string, unknown>): void; error(m: string, fields?: Record<string, unknown>): void; debug(m: string, fields?: Record<string, unknown>): void };
  /** obs's async log context: every line written during a turn (any extension's) carries session/turn/step */
  logContext?: Pick<ObsService, "withContext" | "enterContext">;
  env: NodeJS.ProcessEnv;
  /** steps per root turn (stepCap), given the session's stored --max-steps: throws, naming where the value came from, when it is not a whole number above 0 */
  maxSteps?: (stored?: unknown) => number;
  /** steps per prompt of a child (sub-agent) session (subagentStepCap); throws like maxSteps */
  maxSubagentSteps?: () => number;
  maxRetries: number;
  idleMinutes: number;
  systemPromptExtra?: string;
  /**
   * engine.max_stop_continuations: how many `continue` answers from engine.stop taps one prompt honours
   * (default 8), across the fresh turns a step cap opens; past it the turn settles with a note row.
   */
  maxStopContinuations?: number;
  /** what manifests declare (contributes.tools / contributes.providers): name -> extension */
  /** the model names provider manifests list (contributes.models, contributes.providers) */
  names?: ModelNames;
  declared?: { tools: ReadonlyMap<string, string>; providers: ReadonlyMap<string, string>; optionalTools?: ReadonlySet<string> };
}

/** Default of engine.max_stop_continuations: at most 8 Stop continuations per human prompt (the guide's bound). */
export const DEFAULT_MAX_STOP_CONTINUATIONS = 8;

/** What stepCap reads: the resolved config (engine.max_steps from a file, $OC_MAX_STEPS or run --max-steps). */
export interface StepCapConfig {
  get(dotted: string): unknown;
  sourceOf(dotted: string): { layer: string; file?: string; source?: string } | undefined;
}

/**
 * Steps per root turn: `engine.max_steps` (a config file < $OC_MAX_STEPS < run --max-steps), default 300.
 * `stored`: the --max-steps an earlier run stored on the session (overrides.max_steps); like the flag it beats
 * the environment and the files, so it survives --continue; a new flag or a requirements pin beats it.
 * A variable or flag is not checked at boot, so the error here names it as the user wrote it.
 */
export function stepCap(config: StepCapConfig, stored?: unknown): number {
  const src = config.sourceOf("engine.max_steps");
  const storedOk = typeof stored === "number" && Number.isInteger(stored) && stored > 0;
  if (storedOk && src?.layer !== "host" && src?.layer !== "requirements") return stored;
  const v = config.get("engine.max_steps");
  if (v === undefined) return 300;
  const name = (src?.layer === "env" || src?.layer === "host") && src.source ? src.source : "engine.max_steps";
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw StepCapInvalid({ name, value: String(v) });
  if (v === 0) throw StepCapZero({ name });
  return v;
}

/**
 * Steps per prompt of a child (sub-agent) session: `engine.max_subagent_steps` (a config file <
 * $OC_MAX_SUBAGENT_STEPS), default 300. A child simply stops there (no fresh turn), so a raised root cap
 * does not deepen sub-agents.
 */
export function subagentStepCap(config: StepCapConfig): number {
  const v = config.get("engine.max_subagent_steps");
  if (v === undefined) return 300;
  const src = config.sourceOf("engine.max_subagent_steps");
  const name = (src?.layer === "env" || src?.layer === "host") && src.source ? src.source : "engine.max_subagent_steps";
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw SubagentStepCapInvalid({ name, value: String(v) });
  return v;
}

/**
 * The per-request output cap: $OC_MAX_OUTPUT_TOKENS in either direction (decimals floored), clamped to
 * the model's published maximum; unset, the model's maximum. A value that is not a number of at least 1
 * is ignored (the model's maximum is used) and `warn` is called with why, so the caller can say it once.
 */
export function outputTokenCap(raw: string | undefined, modelMax: number, warn: (m: string) => void): number {
  if (raw === undefined || raw.trim() === "") return modelMax;
  const n = Math.floor(Number(raw.trim()));
  if (!Number.isFinite(n) || n < 1) {
    warn(`OC_MAX_OUTPUT_TOKENS=${raw} is not a number of at least 1; ignored (using the model's maximum, ${modelMax})`);
    return modelMax;
  }
  return Math.min(n, modelMax);
}
