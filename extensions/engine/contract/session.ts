/** Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): sessions and the one-writer claim. */
import type { Row, Usage } from "./rows.js";
import { OcError } from "../../../kernel/api.js";
import { SessionBusy, SessionRefused } from "../errors.js";

// ---------------------------------------------------------------- sessions

/**
 * Per-session state that survives --continue: one typed slot per name, declared by the extension that
 * owns it, in its own contract, by declaration merging (a third party augments "oceancode/api/engine"):
 *
 *   declare module "../engine/api.js" { interface SessionSlots { todos: StoredTodos } }
 *
 * The slots are stored together as the session's `overrides` object, the same JSON as before slots were
 * typed, so older sessions read unchanged. A value comes back from storage as whatever JSON was there:
 * an owner whose slot a hand-edited or older row could break still checks it on read.
 */
export interface SessionSlots {
  /** --max-steps stored by an earlier run (the engine's own slot) */
  max_steps: number;
  /** where a fork was made from: the session and its last copied entry ("r<seq>") */
  forked_from: { session: string; entry: string };
}
/** Every declared slot, each optional (a new session has none). */
export type SessionOverrides = { [K in keyof SessionSlots]?: SessionSlots[K] };

export interface SessionInfo {
  id: string;
  parentId?: string;
  cwd: string;
  model: string;
  createdAt: number;
  title?: string;
  /** per-session state that survives --continue, by slot (SessionSlots: e.g. tideline, permission_mode, todos) */
  overrides: SessionOverrides;
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

/**
 * How a session is driven, set by the host (or command) that runs it, so an extension can tell without
 * the host naming it: `headless` means no person answers the session's questions (a reply is the host's
 * own: `oceancode run`, `oceancode goal`); `auto` is their --auto (the host approves rule asks by itself).
 * Absent: an interactive host, where a person may answer. In memory only, like `ext`.
 */
export interface SessionDriver {
  headless: boolean;
  auto: boolean;
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
  /** who drives the session (a headless host sets it); absent: interactive */
  driver?: SessionDriver;
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
