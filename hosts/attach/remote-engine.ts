/**
 * The part of the engine the pager drives (PagerEngine), served by a running `oceancode serve` through
 * the typed client (`oceancode/client`): sessions are created and opened there, a prompt is queued there
 * and followed on the session's event stream until its `turn_done`, the stream's SessionEvents reach the
 * pager as the embedded engine's would, and a `question_asked` goes to the pager's question handler,
 * whose answer is posted back. Model metadata (for the meter) comes from the local catalogue.
 */
import { type EngineService, type QuestionHandler, type Row, type Session, type SessionEvent, type SessionInfo, type SessionTotals, type TurnResult } from "../../extensions/engine/api.js";
import { emptyUsage } from "../../extensions/engine/kit.js";
import type { OceancodeClient } from "../../extensions/serve/client/index.js";
import type { PagerEngine } from "../pager/controller.js";
import { NotAttached } from "./errors.js";

const EMPTY_TOTALS: SessionTotals = { usage: emptyUsage(), costUsd: 0, turns: 0, steps: 0 };

interface Waiting {
  resolve(r: TurnResult): void;
}

/** One attached session: its stream, its prompts waiting for their turn_done. */
interface Attached {
  session: Session;
  stop: AbortController;
  waiting: Map<string, Waiting>;
  /** turn_done events that came before the prompt call knew its turn id */
  done: Map<string, TurnResult>;
  lastTurn: { turn: number; text: string };
}

export class RemoteEngine implements PagerEngine {
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  private handler?: QuestionHandler;
  private readonly attached = new Map<string, Attached>();

  constructor(
    private readonly api: OceancodeClient,
    private readonly local: Pick<EngineService, "models" | "checkModel">,
    /** `attach --session <id>`: the pager's first session is this one of the server's, not a new one */
    private firstSession?: string,
  ) {}

  get models(): PagerEngine["models"] {
    return this.local.models;
  }

  subscribe(listener: (e: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setQuestionHandler(handler: QuestionHandler | undefined): void {
    this.handler = handler;
  }

  /** The model id is checked against the local catalogue (unknown providers are a usage error); keys live on the server. */
  async checkModel(id: string): Promise<string | undefined> {
    await this.local.checkModel(id);
    return undefined;
  }

  async createSession(opts: { cwd: string; model: string }): Promise<Session> {
    const first = this.firstSession;
    this.firstSession = undefined;
    if (first) return this.openSession(first);
    const info = (await this.api.sessionCreate({ body: { cwd: opts.cwd, model: opts.model } })) as unknown as SessionInfo;
    return this.attach(info, []);
  }

  async openSession(id: string): Promise<Session> {
    const info = (await this.api.sessionGet({ id })) as unknown as SessionInfo;
    const rows: Row[] = [];
    let cursor: number | undefined = 0;
    while (cursor !== undefined) {
      const page: { messages: unknown[]; nextCursor?: number } = await this.api.sessionMessages({ id, cursor, limit: 1000 });
      rows.push(...(page.messages as Row[]));
      cursor = page.nextCursor;
    }
    return this.attach(info, rows);
  }

  private attach(info: SessionInfo, rows: Row[]): Session {
    const session: Session = { info, rows, totals: { ...EMPTY_TOTALS, ...((info as { totals?: SessionTotals }).totals ?? {}) }, nextSeq: (rows.at(-1)?.seq ?? 0) + 1, lastActive: Date.now(), ext: new Map() };
    const a: Attached = { session, stop: new AbortController(), waiting: new Map(), done: new Map(), lastTurn: { turn: 0, text: "" } };
    this.attached.set(info.id, a);
    void this.follow(a);
    return session;
  }

  /** The session's event stream, resumed by the client after a drop, until closeSession. */
  private async follow(a: Attached): Promise<void> {
    try {
      for await (const ev of this.api.sessionEventStream({ id: a.session.info.id }, { signal: a.stop.signal, reconnect: true })) {
        const data = ev.data as { type?: string } & Record<string, unknown>;
        if (ev.event === "question_asked") void this.answer(a, data as unknown as { questionId: string; question: Parameters<QuestionHandler>[0] });
        else if (ev.event === "turn_done") this.finish(a, data as unknown as { turnId: string; reason: TurnResult["reason"]; error?: string });
        else if (typeof data.type === "string" && ev.event === data.type) {
          const e = data as unknown as SessionEvent;
          if (e.type === "usage") a.session.totals = e.totals;
          if (e.type === "turn_end") a.lastTurn = { turn: e.turn, text: e.text };
          for (const l of this.listeners) l(e);
        }
      }
    } catch {
      // closed (closeSession) or the server went away: the pager's prompt reads the failure
    }
    for (const [id, w] of a.waiting) w.resolve({ turn: a.lastTurn.turn, reason: "error", text: "", error: "the server's event stream ended" }), a.waiting.delete(id);
  }

  private finish(a: Attached, d: { turnId: string; reason: TurnResult["reason"]; error?: string }): void {
    const result: TurnResult = { turn: a.lastTurn.turn, reason: d.reason, text: a.lastTurn.text, ...(d.error ? { error: d.error } : {}) };
    const w = a.waiting.get(d.turnId);
    if (w) {
      a.waiting.delete(d.turnId);
      w.resolve(result);
    } else a.done.set(d.turnId, result);
  }

  private async answer(a: Attached, d: { questionId: string; question: Parameters<QuestionHandler>[0] }): Promise<void> {
    const handler = this.handler;
    const reply = handler ? await handler(d.question, a.stop.signal).catch(() => "reject" as const) : "reject";
    const body = typeof reply === "string" ? { answer: reply } : reply.answer === "reject" ? { answer: "reject" as const, reason: reply.reason } : { answer: "once" as const, ...("values" in reply ? { values: reply.values } : {}) };
    await this.api.questionAnswer({ id: a.session.info.id, questionId: d.questionId, body }).catch(() => undefined);
  }

  async prompt(session: Session, text: string, opts: { signal?: AbortSignal } = {}): Promise<TurnResult> {
    const a = this.attached.get(session.info.id);
    if (!a) throw NotAttached({ id: session.info.id });
    const { turnId } = await this.api.sessionPrompt({ id: session.info.id, body: { text } });
    const early = a.done.get(turnId);
    if (early) {
      a.done.delete(turnId);
      return early;
    }
    const onAbort = () => void this.api.sessionAbort({ id: session.info.id }).catch(() => undefined);
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await new Promise<TurnResult>((resolve) => a.waiting.set(turnId, { resolve }));
    } finally {
      opts.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Stop following the session; it stays open on the server (another client may go on with it). */
  async closeSession(session: Session): Promise<void> {
    const a = this.attached.get(session.info.id);
    if (!a) return;
    this.attached.delete(session.info.id);
    a.stop.abort();
  }
}
