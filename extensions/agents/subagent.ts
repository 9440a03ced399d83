/**
 * The session's effective sub-agent model: the model a child whose agent names none (or `inherit`) runs
 * on. The session's override (`overrides.subagent`, kept for a /subagent command), else `subagent.model`
 * config, else the session's own model; aliases and bare ids land on the session's provider (childModel).
 */
import type { SessionInfo } from "../engine/api.js";
import type { ModelRef } from "./api.js";
import { childModel, type ModelAliases } from "./resolve.js";

/** The session override's key (per-session settings survive --continue). */
export const SUBAGENT_OVERRIDE = "subagent";

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

export function subagentModelId(session: SessionInfo, configured: unknown, aliases?: ModelAliases): string {
  return childModel(text(session.overrides[SUBAGENT_OVERRIDE]) ?? text(configured), session.model, aliases);
}

/** `provider/model` as a ModelRef; null when the id names no provider (nothing a client can show). */
export function modelRef(id: string): ModelRef | null {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) return null;
  return { provider: id.slice(0, slash), model: id.slice(slash + 1), id };
}
