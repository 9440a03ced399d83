/**
 * What the engine's parts share: the Engine's state and services, handed to the turn loop, the model
 * call and the tool call (turn.ts, model-call.ts, tool-call.ts) without making them public on Engine.
 */
import type { EngineHooks, ModelInfo, Provider, QuestionHandler, Row, Session, SessionEvent } from "./api.js";
import type { Tools } from "./registries.js";
import type { Catalogue } from "./models.js";
import type { EngineOptions } from "./options.js";

export interface EngineCore {
  readonly hooks: EngineHooks;
  readonly tools: Tools;
  readonly models: Catalogue;
  readonly opts: EngineOptions;
  /** every subscriber (Engine.subscribe) */
  readonly listeners: ReadonlySet<(e: SessionEvent) => void>;
  /** notices queued before a prompt could show them (an unknown model's defaults) */
  readonly pendingNotices: string[];
  /** the running prompt's own onEvent, so notices from extensions reach the host that started it */
  readonly noticeSinks: Map<string, (e: SessionEvent) => void>;
  /** the host's answerer of asks, if any */
  questionHandler(): QuestionHandler | undefined;
  /** the model's provider, loading its extension first */
  provider(model: ModelInfo): Promise<Provider>;
  modelInfo(id: string): Promise<ModelInfo>;
  /** why a prompt on model `id` cannot be sent now, never a throw */
  unready(id: string): Promise<string | undefined>;
  /** steps per root turn for this session */
  maxSteps(session?: Session): number;
  /** engine.max_subagent_steps: steps per prompt of a child session without its own profile.maxSteps */
  maxSubagentSteps(): number;
}

/** Whether the session may be offered / run tool `name` (a child's profile.tools is an allow-list). */
export function toolAllowed(session: Session, name: string): boolean {
  const allow = session.profile?.tools;
  return !allow || allow.includes(name);
}

/** Append a row to the session, giving it the next seq. */
export function pushRow<R extends Row>(session: Session, row: Omit<R, "seq">): R {
  const full = { ...row, seq: session.nextSeq++ } as R;
  session.rows.push(full);
  return full;
}
