/**
 * The ONLY file that knows System One's wire format (docs/jev.md, the HTTP contract): the request body
 * `{model, state, questions}` and the response `{model, answers, usage}`. A response is valid only when
 * every question is answered with its own type, probabilities in 0..1 and, for choice and score, summing
 * to about 1; anything else is `invalid`. A 503 with error code 7003 (the state too long) is `invalid`.
 */
import type { JevAnswer, JevQuestion, JevState } from "../api.js";

export function requestBody(model: string, state: JevState, questions: Readonly<Record<string, JevQuestion>>): string {
  return JSON.stringify({ model, state, questions });
}

export type Parsed =
  | { ok: true; model: string; answers: Record<string, JevAnswer>; inputTokens?: number }
  | { ok: false; reason: string };

const prob = (p: unknown): p is number => typeof p === "number" && Number.isFinite(p) && p >= 0 && p <= 1;
const sumsToOne = (ps: number[]) => Math.abs(ps.reduce((a, b) => a + b, 0) - 1) <= 0.02;

function answerOf(id: string, q: JevQuestion, a: unknown): JevAnswer | string {
  if (!a || typeof a !== "object") return `answer '${id}' is missing`;
  const o = a as Record<string, unknown>;
  if (o.type !== q.type) return `answer '${id}' is of type ${String(o.type)}, asked ${q.type}`;
  if (q.type === "noul") return prob(o.noul) ? { type: "noul", noul: o.noul } : `answer '${id}': noul is not a probability`;
  if (q.type === "choice") {
    const ps = o.probabilities;
    if (typeof o.choice !== "string" || !q.options.includes(o.choice)) return `answer '${id}': choice is not one of the options`;
    if (!prob(o.confidence) || !ps || typeof ps !== "object" || Array.isArray(ps)) return `answer '${id}': bad confidence or probabilities`;
    const vals = Object.entries(ps as Record<string, unknown>);
    if (!vals.every(([k, p]) => q.options.includes(k) && prob(p)) || !sumsToOne(vals.map(([, p]) => p as number))) return `answer '${id}': probabilities are not a distribution over the options`;
    return { type: "choice", choice: o.choice, confidence: o.confidence, probabilities: ps as Record<string, number> };
  }
  const ps = o.probabilities;
  const n = q.criteria.length;
  if (typeof o.score !== "number" || !Number.isFinite(o.score) || o.score < 0 || o.score > n - 1) return `answer '${id}': score out of range`;
  if (!prob(o.confidence) || !Array.isArray(ps) || ps.length !== n || !ps.every(prob) || !sumsToOne(ps as number[])) return `answer '${id}': probabilities are not a distribution over ${n} levels`;
  return { type: "score", score: o.score, confidence: o.confidence, probabilities: ps as number[] };
}

/** Validate a 200 body against the questions asked. */
export function parseResponse(body: unknown, questions: Readonly<Record<string, JevQuestion>>, model: string): Parsed {
  if (!body || typeof body !== "object") return { ok: false, reason: "the response is not a JSON object" };
  const b = body as Record<string, unknown>;
  const raw = b.answers;
  if (!raw || typeof raw !== "object") return { ok: false, reason: "the response has no answers" };
  const answers: Record<string, JevAnswer> = {};
  for (const [id, q] of Object.entries(questions)) {
    const a = answerOf(id, q, (raw as Record<string, unknown>)[id]);
    if (typeof a === "string") return { ok: false, reason: a };
    answers[id] = a;
  }
  const usage = b.usage as Record<string, unknown> | undefined;
  const inputTokens = typeof usage?.input_tokens === "number" ? usage.input_tokens : undefined;
  return { ok: true, model: typeof b.model === "string" ? b.model : model, answers, ...(inputTokens !== undefined ? { inputTokens } : {}) };
}

/** An error body's code (`{error: {code}}`); 7003 is the endpoint's "state too long". */
export function errorCode(body: unknown): number | undefined {
  const e = (body as { error?: { code?: unknown } } | undefined)?.error;
  return typeof e?.code === "number" ? e.code : undefined;
}
export const STATE_TOO_LONG = 7003;

/** `Server-Timing: total;dur=12.5, …` → the largest dur. */
export function serverMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const durs = [...header.matchAll(/dur=([0-9.]+)/g)].map((m) => Number(m[1])).filter(Number.isFinite);
  return durs.length ? Math.max(...durs) : undefined;
}
