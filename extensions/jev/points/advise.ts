/**
 * What points 2, 3, 5 and 6 share: one ask per decision, recorded with its baseline and verdict, off the
 * critical path in shadow; and the sticky keep-sets of points 5 and 6 (the guide's vocabulary rule).
 * Everything goes through the published JevService; nothing here knows the wire format.
 */
import crypto from "node:crypto";
import type { JevAnswer, JevMode, JevOutcome, JevPoint, JevQuestion, JevResult, JevService, JevState } from "../api.js";

/** A policy's conclusion: the verdict string for the row, and the value to apply (undefined: keep today's behaviour). */
export interface Verdict<V> {
  verdict: string;
  /** undefined: the answer did not warrant a change (low confidence, nothing applicable): a fallback */
  value?: V;
}

export interface Decision<V> {
  point: JevPoint;
  sessionId: string;
  state: JevState;
  questions: Readonly<Record<string, JevQuestion>>;
  /** today's behaviour, for the row (e.g. "head", "none", "all") */
  baseline: string;
  policy: (answers: Readonly<Record<string, JevAnswer>>) => Verdict<V>;
  signal?: AbortSignal;
  deadlineMs?: number;
}

/** What a decision in act gave: the value to apply, or undefined to keep today's behaviour. */
export interface Decided<V> {
  mode: JevMode;
  value?: V;
  verdict?: string;
}

function rowFor<V>(jev: JevService, d: Decision<V>, mode: JevMode, r: JevResult, outcome: JevOutcome, verdict: string) {
  const base = {
    session: d.sessionId,
    point: d.point,
    mode,
    outcome,
    verdict,
    baseline: d.baseline,
    latency_ms: r.latencyMs,
    state_hash: r.stateHash,
    state: r.state,
  };
  if (!r.ok) return { ...base, model: jev.status().model, answers: r.reason };
  return {
    ...base,
    model: r.model,
    ...(r.serverMs !== undefined ? { server_ms: r.serverMs } : {}),
    ...(r.inputTokens !== undefined ? { input_tokens: r.inputTokens } : {}),
    answers: r.answers,
  };
}

function safePolicy<V>(d: Decision<V>, answers: Readonly<Record<string, JevAnswer>>): Verdict<V> {
  try {
    return d.policy(answers);
  } catch (e) {
    return { verdict: `${d.baseline} (policy failed: ${e instanceof Error ? e.message : String(e)})` };
  }
}

/**
 * Ask one decision according to the point's mode. off: nothing. shadow: the ask runs in the background
 * (never awaited) and its row says shadow; today's behaviour stands. act: awaited; an answer the policy
 * turns into a value is acted, one it does not is a fallback, a failed ask keeps its outcome (unavailable,
 * invalid, injection, off) and today's behaviour.
 */
export async function decide<V>(jev: JevService, d: Decision<V>): Promise<Decided<V>> {
  const mode = jev.mode(d.point);
  if (mode === "off") return { mode };
  const req = {
    point: d.point,
    sessionId: d.sessionId,
    state: d.state,
    questions: d.questions,
    ...(d.deadlineMs !== undefined ? { deadlineMs: d.deadlineMs } : {}),
    ...(d.signal && mode === "act" ? { signal: d.signal } : {}),
  };
  if (mode === "shadow") {
    void jev
      .ask(req)
      .then((r) => {
        if (!r.ok) jev.record(rowFor(jev, d, mode, r, r.outcome, d.baseline));
        else jev.record(rowFor(jev, d, mode, r, "shadow", safePolicy(d, r.answers).verdict));
      })
      .catch(() => undefined);
    return { mode };
  }
  let r: JevResult;
  try {
    r = await jev.ask(req);
  } catch (e) {
    // ask never throws by contract; a broken implementation still keeps today's behaviour
    return { mode, verdict: `${d.baseline} (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!r.ok) {
    jev.record(rowFor(jev, d, mode, r, r.outcome, d.baseline));
    return { mode };
  }
  const v = safePolicy(d, r.answers);
  jev.record(rowFor(jev, d, mode, r, v.value === undefined ? "fallback" : "acted", v.verdict));
  return v.value === undefined ? { mode, verdict: v.verdict } : { mode, value: v.value, verdict: v.verdict };
}

/** A state hash for rows written without an ask (a sticky reuse): sha256 of the state's JSON. */
export function hashState(state: JevState): string {
  return crypto.createHash("sha256").update(JSON.stringify(state)).digest("hex").slice(0, 16);
}

/** Head and tail of a long text around a marker, to keep a state under its budget before the client's own cap. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.max(1, Math.floor((max - 40) / 2));
  return `${text.slice(0, half)}\n[truncated ${text.length - 2 * half} chars]\n${text.slice(text.length - half)}`;
}

// ---------------------------------------------------------------- sticky keep-sets (points 5 and 6)

/** The guide's stop list: words that say nothing about what a prompt needs. */
export const STICKY_STOP_WORDS: readonly string[] = [
  "please", "with", "this", "that", "from", "into", "then", "make", "also", "just", "should", "could", "would",
  "need", "want", "file", "files", "code", "change", "update", "fix",
];
const STOP = new Set(STICKY_STOP_WORDS);

/** A prompt's words: lowercase a-z, 0-9, _ runs of four or more characters, not in the stop list (distinct). */
export function promptWords(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[a-z0-9_]{4,}/g)) if (!STOP.has(m[0])) out.add(m[0]);
  return [...out];
}

/**
 * Does a prompt share vocabulary with the previous one (so a keep-set is reused and nothing is sent)? It has
 * fewer than four words, or at least a fifth of its words appear in the previous prompt.
 */
export function sharesVocabulary(prompt: string, previous: string): boolean {
  const words = promptWords(prompt);
  if (words.length < 4) return true;
  const prev = new Set(promptWords(previous));
  const shared = words.filter((w) => prev.has(w)).length;
  return shared * 5 >= words.length;
}

export const STICKY_REASON = "keep-set reused: the prompt shares vocabulary with the previous one";

/** One session's keep-set for a point (act only): grows, never shrinks. */
export interface KeepSet {
  /** the names kept; undefined until a decision made one */
  names?: Set<string>;
  /** the previous prompt's text (every prompt updates it) */
  previous?: string;
}

/**
 * The sticky step of a prompt in act: "reuse" when a keep-set from a decision exists and the prompt shares
 * vocabulary with the previous one (the caller records one acted sticky row and sends nothing); "decide"
 * otherwise (the caller adds the decision's names to the set).
 */
export function stickyStep(ks: KeepSet, prompt: string): "reuse" | "decide" {
  const prev = ks.previous;
  ks.previous = prompt;
  if (ks.names && prev !== undefined && sharesVocabulary(prompt, prev)) return "reuse";
  return "decide";
}

/** The acted row of a sticky reuse: no request, verdict "sticky", the reason as answers. */
export function recordSticky(jev: JevService, point: JevPoint, sessionId: string, prompt: string, kept: Iterable<string>): void {
  const state: JevState = { prompt, kept: [...kept] };
  jev.record({
    session: sessionId,
    point,
    mode: "act",
    outcome: "acted",
    verdict: "sticky",
    baseline: "all",
    latency_ms: 0,
    model: jev.status().model,
    state_hash: hashState(state),
    state,
    answers: STICKY_REASON,
  });
}

/** The latest user prompt of a turn in a session's rows (the text the user typed). */
export function promptOfTurn(rows: readonly { role: string; turn: number; text?: string }[], turn: number): string | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.role === "user" && r.turn === turn) return r.text ?? "";
    if (r.turn < turn) break;
  }
  return undefined;
}
