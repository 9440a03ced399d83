/**
 * Permission questions of the server's sessions: each is parked with an id until someone answers it over
 * HTTP (a person: so a question with autoApprove false may be approved here), its turn is aborted, or the
 * session closes.
 */
import type { Answer, Question, QuestionReply } from "../engine/api.js";

export interface PendingQuestion {
  id: string;
  sessionId: string;
  question: Question;
  askedAt: number;
}

interface Parked extends PendingQuestion {
  settle(a: QuestionReply): void;
}

export type QuestionEvents = {
  asked(p: PendingQuestion): void;
  settled(p: PendingQuestion, answer: string): void;
};

export class Questions {
  private readonly pending = new Map<string, Parked>();
  private next = 1;

  constructor(private readonly events: QuestionEvents) {}

  /** The engine's question handler: parks the question until it is answered or `signal` aborts. */
  ask(q: Question, signal: AbortSignal): Promise<QuestionReply> {
    return new Promise((resolve) => {
      const id = `q${this.next++}`;
      const p: Parked = {
        id,
        sessionId: q.sessionId,
        question: q,
        askedAt: Date.now(),
        settle: (a) => {
          if (!this.pending.delete(id)) return;
          signal.removeEventListener("abort", onAbort);
          this.events.settled(p, typeof a === "string" ? a : a.answer);
          resolve(a);
        },
      };
      const onAbort = () => p.settle({ answer: "reject", by: "oceancode serve", reason: "the turn was aborted before anyone answered" });
      if (signal.aborted) return resolve({ answer: "reject", by: "oceancode serve", reason: "the turn was aborted before anyone answered" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, p);
      this.events.asked(p);
    });
  }

  list(sessionId: string): PendingQuestion[] {
    return [...this.pending.values()].filter((p) => p.sessionId === sessionId).map(({ id, sessionId: s, question, askedAt }) => ({ id, sessionId: s, question, askedAt }));
  }

  /**
   * Answer one; false when there is no such pending question of this session. `values` answer a form
   * question (an MCP elicitation's fields) with "once".
   */
  answer(sessionId: string, id: string, answer: Answer, reason?: string, values?: Record<string, string>): boolean {
    const p = this.pending.get(id);
    if (!p || p.sessionId !== sessionId) return false;
    // a reject with a reason names who rejected (the model is told); a plain reject reads "the user rejected"
    if (answer === "reject") p.settle(reason ? { answer: "reject", by: "the user (over HTTP)", reason } : answer);
    else p.settle(values && p.question.fields?.length ? { answer: "once", values } : answer);
    return true;
  }

  /** Reject every pending question of a session (its turn was aborted, it is closing). */
  rejectAll(sessionId: string | undefined, reason: string): void {
    for (const p of [...this.pending.values()]) if (sessionId === undefined || p.sessionId === sessionId) p.settle({ answer: "reject", by: "oceancode serve", reason });
  }
}
