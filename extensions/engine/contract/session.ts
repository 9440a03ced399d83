/** Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): sessions and the one-writer claim. */
import type { Row, Usage } from "./rows.js";

// ---------------------------------------------------------------- sessions

export interface SessionInfo {
  id: string;
  parentId?: string;
  cwd: string;
  model: string;
  createdAt: number;
  title?: string;
  /** per-session settings that survive --continue (e.g. tideline override, permission mode) */
  overrides: Record<string, unknown>;
}

export interface SessionTotals {
  usage: Usage;
  costUsd: number;
  turns: number;
  steps: number;
}

/**
 * What a child (sub-agent) session runs with, given to createSession and enforced by the engine. Kept in
 * memory only (not stored): a child runs within its parent's prompt.
 */
export interface SessionProfile {
  /** replaces the engine's generic opening line of the system prompt (e.g. an agent's body) */
  system?: string;
  /** the only registered tools offered to the model and allowed to run; absent: every tool */
  tools?: readonly string[];
  /**
   * steps per prompt for a child session (one with parentId); reaching it ends the turn with reason
   * "step_cap" instead of continuing in a fresh turn. Absent: engine.max_subagent_steps ($OC_MAX_SUBAGENT_STEPS, 300).
   */
  maxSteps?: number;
}

/** An open session in memory. */
export interface Session {
  info: SessionInfo;
  /** full history in memory (append-only); the window is chosen by contextBuild */
  rows: Row[];
  totals: SessionTotals;
  /** next seq to assign */
  nextSeq: number;
  lastActive: number;
  /** extension-owned per-session state (keyed by extension id) */
  ext: Map<string, unknown>;
  /** a child session's system prompt, tool allow-list and step cap (createSession's `profile`) */
  profile?: SessionProfile;
}

/** What storage hands back when a session is reopened. */
export interface StoredSession {
  info: SessionInfo;
  rows: Row[];
  totals: SessionTotals;
}

/**
 * A store's answer to loadSession when it will not open the session as it stands (e.g. its ledger runs
 * past the database and the two cannot be joined): the message says why and what to run. openSession
 * then fails with OC_ERR_SESSION_REFUSED (or the answer's own code) and nothing of the session is touched.
 */
export interface SessionRefusal {
  refused: string;
  code?: string;
}

export const SESSION_REFUSED = "OC_ERR_SESSION_REFUSED" as const;

/** What claimSession taps are asked. */
export interface SessionClaimRequest {
  id: string;
  /** wait for another holder to let go instead of refusing */
  wait: boolean;
}

/** A claim: held until release(), or refused with a message naming the holder. */
export type SessionClaim = { release(): Promise<void> } | { refused: string };

export const SESSION_BUSY = "OC_ERR_SESSION_BUSY" as const;
