/**
 * A fake TypeSafe System One endpoint on 127.0.0.1 (the Jev HTTP contract in docs/jev.md), scriptable per
 * request and recording every request:
 *
 *   const jev = await startFakeSystemOne();
 *   jev.answer((req) => ({ destructive: { type: "noul", noul: 0.02 } }));   // answers by question id
 *   jev.enqueue({ type: "error", status: 429 });                            // the next request only
 *   env.OC_JEV_ENDPOINT = jev.url;
 *
 * Without a script every question gets a neutral answer: noul 0.5, the first option, score at the middle.
 */
import type http from "node:http";
import { sendJson, startServer, type BaseServer, type FakeServerOptions, type RecordedRequest } from "./common.js";

export interface SystemOneBody {
  model?: string;
  state?: unknown;
  questions?: Record<string, { type: string; instructions?: string; options?: string[]; criteria?: unknown }>;
}

export type FakeAnswer =
  | { type: "noul"; noul: number }
  | { type: "choice"; choice: string; confidence?: number; probabilities?: Record<string, number> }
  | { type: "score"; score: number; confidence?: number; probabilities?: number[] };

export type SystemOneReply =
  /** answers by question id (missing ids get the neutral answer); `latencyMs` holds this reply */
  | { type?: "answers"; answers: Record<string, FakeAnswer>; latencyMs?: number; serverMs?: number; inputTokens?: number }
  /** an HTTP error; 503 with code 7003 is the endpoint's "state too long" */
  | { type: "error"; status: number; code?: number; message?: string; latencyMs?: number }
  /** a redirect (a client must not follow it) */
  | { type: "redirect"; location: string }
  /** a 200 whose body is this verbatim (malformed answers) */
  | { type: "raw"; body: unknown };

export interface FakeSystemOne extends BaseServer<SystemOneBody> {
  /** reply to the next request with these, in order */
  enqueue(...replies: SystemOneReply[]): void;
  /** the default reply (after the queue): answers by question id, from the request */
  answer(fn: (req: RecordedRequest<SystemOneBody>) => Record<string, FakeAnswer>): void;
  /** the default reply as a whole (an error, a latency), from the request; wins over answer() */
  respond(fn: (req: RecordedRequest<SystemOneBody>) => SystemOneReply): void;
}

function neutral(q: { type: string; options?: string[]; criteria?: unknown }): FakeAnswer {
  if (q.type === "choice") {
    const opts = q.options ?? ["?"];
    return { type: "choice", choice: opts[0]!, confidence: 1 / opts.length, probabilities: Object.fromEntries(opts.map((o) => [o, 1 / opts.length])) };
  }
  if (q.type === "score") {
    const n = Array.isArray(q.criteria) ? q.criteria.length : 3;
    return { type: "score", score: (n - 1) / 2, confidence: 1 / n, probabilities: Array.from({ length: n }, () => 1 / n) };
  }
  return { type: "noul", noul: 0.5 };
}

/**
 * A script's probabilities as the endpoint sends them: a distribution over every option. Options the script
 * left out share what is left; a script whose numbers sum past 1 (a ranking) is scaled down to 1.
 */
function distribution(given: Record<string, number>, opts: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const missing = opts.filter((o) => given[o] === undefined);
  const sum = Object.values(given).reduce((n, v) => n + v, 0);
  for (const o of opts) out[o] = given[o] ?? (sum < 1 && missing.length ? (1 - sum) / missing.length : 0);
  const total = Object.values(out).reduce((n, v) => n + v, 0);
  if (total > 0 && Math.abs(total - 1) > 1e-9) for (const o of opts) out[o] = out[o]! / total;
  return out;
}

/** Fill what a script left out, so a test writes only the numbers it means. */
function complete(a: FakeAnswer, q: { type: string; options?: string[]; criteria?: unknown } | undefined): FakeAnswer {
  if (a.type === "choice") {
    const opts = q?.options ?? [a.choice];
    const probabilities = a.probabilities ? distribution(a.probabilities, opts) : Object.fromEntries(opts.map((o) => [o, o === a.choice ? 0.9 : 0.1 / Math.max(1, opts.length - 1)]));
    return { type: "choice", choice: a.choice, confidence: a.confidence ?? probabilities[a.choice] ?? 0.9, probabilities };
  }
  if (a.type === "score") {
    const n = Array.isArray(q?.criteria) ? q.criteria.length : 3;
    const probabilities = a.probabilities ?? Array.from({ length: n }, (_, i) => (i === Math.round(a.score) ? 0.9 : 0.1 / Math.max(1, n - 1)));
    return { type: "score", score: a.score, confidence: a.confidence ?? 0.9, probabilities };
  }
  return a;
}

export async function startFakeSystemOne(opts: FakeServerOptions = {}): Promise<FakeSystemOne> {
  const queue: SystemOneReply[] = [];
  let answerFn: ((req: RecordedRequest<SystemOneBody>) => Record<string, FakeAnswer>) | undefined;
  let respondFn: ((req: RecordedRequest<SystemOneBody>) => SystemOneReply) | undefined;
  const base = await startServer<SystemOneBody>(opts, async (req, res: http.ServerResponse) => {
    const reply: SystemOneReply = queue.shift() ?? respondFn?.(req) ?? { answers: answerFn?.(req) ?? {} };
    const hold = "latencyMs" in reply && reply.latencyMs ? reply.latencyMs : 0;
    if (hold) await new Promise((r) => setTimeout(r, hold));
    if (reply.type === "error") {
      sendJson(res, reply.status, { error: { code: reply.code ?? reply.status, message: reply.message ?? `fake error ${reply.status}` } });
      return;
    }
    if (reply.type === "redirect") {
      res.writeHead(307, { location: reply.location });
      res.end();
      return;
    }
    if (reply.type === "raw") {
      sendJson(res, 200, reply.body);
      return;
    }
    const qs = req.body.questions ?? {};
    const answers: Record<string, FakeAnswer> = {};
    for (const [id, q] of Object.entries(qs)) answers[id] = reply.answers[id] ? complete(reply.answers[id]!, q) : neutral(q);
    const headers = reply.serverMs !== undefined ? { "server-timing": `total;dur=${reply.serverMs}` } : undefined;
    sendJson(res, 200, { model: req.body.model ?? "jev-1.13.0", answers, usage: { input_tokens: reply.inputTokens ?? Math.ceil(JSON.stringify(req.body.state ?? "").length / 4), output_tokens: Object.keys(answers).length } }, headers);
  });
  return Object.assign(base, {
    enqueue: (...r: SystemOneReply[]) => void queue.push(...r),
    answer: (f: typeof answerFn) => void (answerFn = f),
    respond: (f: typeof respondFn) => void (respondFn = f),
  }) as FakeSystemOne;
}
