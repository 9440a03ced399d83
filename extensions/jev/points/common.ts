/** Helpers the points share: the session's current prompt, whether it is headless, a row from a result. */
import type { Session, SessionDriver } from "../../engine/api.js";
import type { JevDecisionRow, JevMode, JevPoint, JevResult } from "../api.js";

/** The last user prompt's text (the task; exempt from the injection guard). */
export function lastPrompt(session: Session): string {
  for (let i = session.rows.length - 1; i >= 0; i--) {
    const r = session.rows[i]!;
    if (r.role === "user") return r.text;
  }
  return "";
}

/**
 * The session's driver when no person answers it (oceancode run, goal: session.driver, set by the host):
 * a headless reply is never a label, and under `--auto` an act advice that a command is unsafe rejects the call.
 */
export function headless(session: Session): SessionDriver | undefined {
  return session.driver?.headless ? session.driver : undefined;
}

/** A decision row from an ask's result. */
export function rowOf(
  point: JevPoint,
  session: string,
  mode: JevMode,
  res: JevResult,
  verdict: string,
  baseline: string,
  outcome?: JevDecisionRow["outcome"],
  model = "",
): Omit<JevDecisionRow, "type" | "at"> {
  return {
    session,
    point,
    mode,
    outcome: outcome ?? (res.ok ? (mode === "shadow" ? "shadow" : "acted") : res.outcome),
    verdict,
    baseline,
    latency_ms: res.latencyMs,
    ...(res.ok && res.serverMs !== undefined ? { server_ms: res.serverMs } : {}),
    model: res.ok ? res.model : model,
    ...(res.ok && res.inputTokens !== undefined ? { input_tokens: res.inputTokens } : {}),
    state_hash: res.stateHash,
    state: res.state,
    answers: res.ok ? res.answers : res.reason,
  };
}
