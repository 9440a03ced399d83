/**
 * The sessions this server holds open: opened on first use (claimed for this process, like run --session),
 * one queue of turns per session (turns of one session run one after another; sessions run side by side),
 * each turn with its own AbortController so /abort and shutdown stop it at a step boundary.
 */
import { type EngineService, type Row, type Session, type TurnResult } from "../engine/api.js";
import { isSessionBusy } from "../engine/kit.js";
import type { StorageService } from "../storage/api.js";
import { type FleetService } from "./api.js";
import { HttpError } from "./kit/shared.js";
import type { PendingPrompt, PendingStore, PromptAttach } from "./pending.js";
import type { SessionOverrides } from "../engine/api.js";

/** What the hub asks of the fleet (FleetService): the durable record of its turns, and adopting a gone instance's. */
export type FleetTurns = Pick<FleetService, "turnQueued" | "turnStarted" | "turnFinished" | "adopt">;

interface Held {
  session: Session;
  /** the tail of this session's turn queue */
  tail: Promise<void>;
  running?: { turnId: string; controller: AbortController };
  queued: number;
  /** being closed (DELETE): its queued turns do not start */
  closed?: boolean;
  /** fleet: adoptions of a gone instance's turns, one after another (their order is the queue's) */
  adopting: Promise<unknown>;
}

export interface TurnHooks {
  queued(sessionId: string, turnId: string): void;
  done(sessionId: string, turnId: string, result: TurnResult | undefined, error?: string): void;
  aborted(sessionId: string): void;
}

/** What a taken-over session's model is told (a user turn: the interrupted request comes with it). */
export function takeoverPrompt(interruptedText: string): string {
  return (
    "[interrupted: the oceancode instance running your previous turn stopped (shut down, killed or crashed) in the middle of it. " +
    "Everything up to the last completed step was kept; a step in flight was lost, and a tool call it made was interrupted: " +
    "its result and effects are unknown (check before repeating it). Continue the interrupted request.]\n\n" +
    interruptedText
  );
}

/** An accepted prompt until its turn ends: what a stopping server keeps when it cannot finish it. */
interface Accepted {
  sessionId: string;
  text: string;
  acceptedAt: number;
  /** carried from a kept prompt that had started before an earlier stop */
  interrupted: boolean;
  started: boolean;
  /** run from serve-pending.json at this start */
  resumed: boolean;
  /** files (as context) and images attached to it */
  attach?: PromptAttach;
}

export class SessionHub {
  private readonly held = new Map<string, Held>();
  /** every accepted turn of this server that has not ended, by turn id, in acceptance order */
  private readonly accepted = new Map<string, Accepted>();
  /** kept prompts this start could not run (their session held by another process): kept again */
  private kept: PendingPrompt[] = [];
  /** the drain is over (or there was none): running turns are aborted, queued ones are kept, not started */
  private stopping = false;
  private readonly opening = new Map<string, Promise<Held>>();
  private nextTurn = 1;
  /** set by a fleet shutdown: running and queued turns are left to the next holder */
  private handingOver = false;
  private closing = false;

  constructor(
    private readonly engine: EngineService,
    private readonly storage: StorageService | undefined,
    private readonly hooks: TurnHooks,
    /** fleet mode: hand a prompt for a session another live instance holds to that instance (its turn id) */
    private readonly forward?: (id: string, text: string) => Promise<string>,
    /** fleet mode: each turn recorded from acceptance to its end, so another instance can finish a dead one's */
    private readonly fleet?: FleetTurns,
    /** where a stopping server keeps what it could not finish (serve-pending.json) */
    private readonly pending?: PendingStore,
  ) {}

  /**
   * Run what an earlier stop kept (serve-pending.json), before anything sent to this start: an interrupted
   * turn is continued with the takeover prompt, the others run as sent, in the order they were accepted.
   */
  async resumePending(warn: (m: string) => void): Promise<{ resumed: number; kept: number }> {
    if (!this.pending) return { resumed: 0, kept: 0 };
    let resumed = 0;
    for (const p of this.pending.load(warn)) {
      try {
        const h = await this.hold(p.sessionId);
        await this.enqueue(p.sessionId, h, p.text, { interrupted: p.interrupted, acceptedAt: p.acceptedAt, resumed: true }, p.attach);
        resumed += 1;
      } catch (e) {
        if ((e as { code?: string }).code === "session_not_found") warn(`serve: a kept prompt for session ${p.sessionId} cannot run: the session is not in the store`);
        else this.kept.push(p); // held elsewhere, or the store is unreadable now: for a later start
      }
    }
    this.savePending(false);
    return { resumed, kept: this.kept.length };
  }

  /** Rewrite serve-pending.json: the kept prompts and (`all`) every unfinished accepted turn, else the resumed ones only. */
  private savePending(all: boolean): void {
    if (!this.pending) return;
    const left = [...this.accepted.values()].filter((a) => all || a.resumed);
    this.pending.save([...this.kept, ...left.map((a) => ({ sessionId: a.sessionId, text: a.text, interrupted: a.interrupted || a.started, acceptedAt: a.acceptedAt, ...(a.attach ? { attach: a.attach } : {}) }))]);
  }

  /** A forced exit: keep every accepted turn that has not ended (best effort, synchronous). */
  keepUnfinished(): number {
    if (this.handingOver) return 0;
    try {
      this.savePending(true);
      return this.kept.length + this.accepted.size;
    } catch {
      return 0;
    }
  }

  /** The accepted turn ended (or was dropped): forgotten, and the kept file no longer lists it. */
  private ended(turnId: string): void {
    const a = this.accepted.get(turnId);
    this.accepted.delete(turnId);
    if (a?.resumed && !this.closing) {
      try {
        this.savePending(false);
      } catch {
        // rewritten again at the next end or at shutdown
      }
    }
  }

  /**
   * Take over a session with turns a gone instance left (its claim free, or already ours): claim it, which
   * adopts them (hold), or adopt them now if this server held it already. The session is reloaded from
   * storage, so it continues from the last committed step; the step that was in flight (its model answer and
   * any tool call) was never committed: an interrupted turn is continued with a prompt that tells the model
   * its tool call was interrupted and its effect unknown, so nothing is re-run blindly; turns that had not
   * started run as sent, after it, in the order they were accepted.
   */
  async takeover(id: string): Promise<"taken" | "busy" | "gone"> {
    if (this.closing) return "busy";
    const had = this.held.get(id);
    if (had) {
      if (had.closed) return "busy";
      await this.adoptLeft(id, had);
      return "taken";
    }
    let h: Held;
    try {
      h = await this.hold(id); // claims, and adopts what the gone holder left
    } catch (e) {
      return (e as { code?: string }).code === "session_not_found" ? "gone" : "busy";
    }
    await h.adopting;
    if (!h.running && h.queued === 0 && this.held.get(id) === h) {
      // the holder was only slow to come back (after a database restart): its turns ended before we could adopt
      // any, so nothing runs here; let the claim go, or both instances would think they hold the session
      h.closed = true;
      this.held.delete(id);
      await this.engine.closeSession(h.session, "exit").catch(() => undefined);
    }
    return "taken";
  }

  /** Queue the turns gone instances left for a session this server just claimed (or holds); serialized per session. */
  private adoptLeft(id: string, h: Held): Promise<unknown> {
    const fleet = this.fleet;
    if (!fleet) return Promise.resolve();
    const run = h.adopting.then(async () => {
      for (const t of await fleet.adopt(id)) await this.enqueue(id, h, t.interrupted ? takeoverPrompt(t.text) : t.text).catch(() => undefined);
    });
    h.adopting = run.catch(() => undefined);
    return run;
  }

  /** whether this server holds the session (its claim) now */
  holds(id: string): boolean {
    return this.held.has(id) && !this.held.get(id)!.closed;
  }

  /** the ids of the sessions this server holds claims on */
  claimed(): string[] {
    return [...this.held.keys()];
  }

  get openCount(): number {
    return this.held.size;
  }

  /** accepted prompts whose turn has not started (metrics' queue depth) */
  get queuedCount(): number {
    let n = 0;
    for (const a of this.accepted.values()) if (!a.started) n++;
    return n;
  }

  openSessions(): Session[] {
    return [...this.held.values()].map((h) => h.session);
  }

  async create(opts: { cwd: string; model: string; overrides?: SessionOverrides }): Promise<Session> {
    if (this.closing) throw new HttpError(503, "shutting_down", "the server is shutting down");
    const session = await this.engine.createSession(opts);
    this.held.set(session.info.id, { session, tail: Promise.resolve(), queued: 0, adopting: Promise.resolve() });
    return session;
  }

  /** The session as this server holds it, opening (claiming) it on first use. 404 unknown, 409 held by another process. */
  session(id: string): Promise<Session> {
    return this.hold(id).then((h) => h.session);
  }

  private hold(id: string): Promise<Held> {
    const h = this.held.get(id);
    if (h) return Promise.resolve(h);
    if (this.closing) return Promise.reject(new HttpError(503, "shutting_down", "the server is shutting down"));
    let p = this.opening.get(id);
    if (!p) {
      p = this.engine
        .openSession(id)
        .catch(async (e: unknown) => {
          if (isSessionBusy(e)) throw new HttpError(409, "session_busy", `session ${id} is held by another process`);
          // a store that cannot be read is not a missing session (a takeover drops the turns of a missing one)
          const stored = this.storage ? await this.storage.loadSession(id).then((x) => !!x, () => undefined) : false;
          if (stored === false) throw new HttpError(404, "session_not_found", `no session '${id}'`);
          throw e;
        })
        .then(async (session) => {
          const held: Held = { session, tail: Promise.resolve(), queued: 0, adopting: Promise.resolve() };
          this.held.set(id, held);
          // fleet: whoever claims a session runs what a gone holder left of it, before anything sent now
          await this.adoptLeft(id, held).catch(() => undefined);
          return held;
        })
        .finally(() => this.opening.delete(id));
      this.opening.set(id, p);
    }
    return p;
  }

  /** context carried to a session's next prompt (the output of a `!cmd` run over HTTP), by session id */
  private readonly carried = new Map<string, string[]>();

  /** Attach this text to the session's next prompt as context (a shell command's output). */
  carry(id: string, text: string): void {
    this.carried.set(id, [...(this.carried.get(id) ?? []), text]);
  }

  /** Queue a prompt (with its attachments, after what was carried); resolves at once with its turn id (the turn runs in the background). */
  async prompt(id: string, text: string, given?: PromptAttach): Promise<string> {
    const carried = this.carried.get(id);
    const attach = carried?.length ? { context: [...carried, ...(given?.context ?? [])], images: given?.images ?? [] } : given;
    const turnId = await this.promptWith(id, text, attach);
    // taken only once the prompt was accepted: a refused one leaves it for the next
    if (carried) this.carried.delete(id);
    return turnId;
  }

  private async promptWith(id: string, text: string, attach?: PromptAttach): Promise<string> {
    let h: Held;
    try {
      h = await this.hold(id);
    } catch (e) {
      if (!this.forward || (e as { code?: string }).code !== "session_busy") throw e;
      // the fleet forwards text only: attachments are not dropped silently
      if (attach) throw new HttpError(409, "session_busy", `session ${id} is held by another instance; a prompt with attachments is not forwarded (send it to that instance)`);
      // another instance holds it: forward the prompt there; when no live instance takes it (its holder died
      // between our claim attempt and now), try the claim once more: a free lock is a takeover
      try {
        return await this.forward(id, text);
      } catch (fe) {
        h = await this.hold(id).catch(() => {
          throw new HttpError(409, "session_busy", `session ${id} is held by another instance that did not take the prompt: ${(fe as Error).message}`);
        });
      }
    }
    return this.enqueue(id, h, text, undefined, attach);
  }

  /**
   * Append a turn to the session's queue; its turn id once accepted. In a fleet it is accepted only once
   * recorded (FleetService.turnQueued), so an accepted prompt outlives this process.
   */
  private async enqueue(id: string, h: Held, text: string, from?: { interrupted: boolean; acceptedAt: number; resumed: boolean }, attach?: PromptAttach): Promise<string> {
    if (this.closing) throw new HttpError(503, "shutting_down", "the server is shutting down");
    if (h.closed) throw new HttpError(409, "session_closing", `session ${id} is being closed`);
    const turnId = `turn_${this.nextTurn++}`;
    const record: Accepted = { sessionId: id, text, acceptedAt: from?.acceptedAt ?? Date.now(), interrupted: from?.interrupted ?? false, started: false, resumed: from?.resumed ?? false, ...(attach ? { attach } : {}) };
    const sent = record.interrupted ? takeoverPrompt(text) : text;
    const fleet = this.fleet;
    // its place in the queue is taken now (in call order); it waits there until accepted or refused
    let settle!: (accepted: boolean) => void;
    const accepted = new Promise<boolean>((r) => (settle = r));
    h.queued += 1;
    h.tail = h.tail.then(async () => {
      const ok = await accepted;
      h.queued -= 1;
      if (!ok) return;
      if (this.stopping || h.closed) {
        // handed over: left queued for the instance that claims the session next
        if (this.handingOver) return;
        if (this.stopping && !h.closed) {
          // kept (serve-pending.json): the next start runs it
          this.hooks.done(id, turnId, undefined, "the server stopped before this turn started; it is kept and runs when the server starts again");
          return;
        }
        this.ended(turnId);
        await fleet?.turnFinished(id, turnId).catch(() => undefined);
        this.hooks.done(id, turnId, undefined, "the session was closed before this turn started");
        return;
      }
      const controller = new AbortController();
      h.running = { turnId, controller };
      record.started = true;
      try {
        // the engine lets an idle session leave memory (engine.idle_minutes) while this process keeps its
        // claim: reopening gives the live object (a map lookup when it is still in memory)
        h.session = await this.engine.openSession(id);
        await fleet?.turnStarted(id, turnId).catch(() => undefined);
        const extra = { ...(attach?.context.length ? { context: attach.context } : {}), ...(attach?.images.length ? { images: attach.images } : {}) };
        const result = await this.engine.prompt(h.session, sent, { signal: controller.signal, ...extra });
        if (!this.handedOver(controller)) this.hooks.done(id, turnId, result, result.error);
      } catch (e) {
        if (!this.handedOver(controller)) this.hooks.done(id, turnId, undefined, (e as Error).message);
      } finally {
        h.running = undefined;
        // a turn the drain's deadline stopped is kept (continued at the next start); any other end is final
        if (!(this.stopping && controller.signal.aborted)) this.ended(turnId);
        // awaited: recorded as ended before the claim can be let go (close waits for the tail), so no other
        // instance takes a finished turn for an interrupted one. A turn handed over stays running: the
        // instance that claims the session next continues it
        if (!this.handedOver(controller)) await fleet?.turnFinished(id, turnId).catch(() => undefined);
      }
    });
    if (fleet) {
      try {
        await fleet.turnQueued(id, turnId, text);
      } catch (e) {
        settle(false);
        throw new HttpError(503, "fleet_unavailable", `the prompt was not accepted: it could not be recorded for the fleet (${(e as Error).message})`);
      }
    }
    this.accepted.set(turnId, record);
    this.hooks.queued(id, turnId);
    settle(true);
    return turnId;
  }

  /** Abort the running turn (at the next step boundary); returns its turn id, if one was running. */
  abort(id: string): string | undefined {
    const h = this.held.get(id);
    if (!h?.running) return undefined;
    h.running.controller.abort();
    this.hooks.aborted(id);
    return h.running.turnId;
  }

  busy(id: string): { running?: string; queued: number } {
    const h = this.held.get(id);
    return { running: h?.running?.turnId, queued: h?.queued ?? 0 };
  }

  /** Rows with seq > cursor, committed ones from storage (an open session's newest rows may still be in memory only). */
  async rows(id: string): Promise<Row[]> {
    const h = this.held.get(id);
    if (this.storage) {
      await this.storage.settle();
      const stored = await this.storage.loadSession(id);
      if (stored) {
        // rows the writer has not committed yet: the open session's in-memory tail
        const last = stored.rows.length ? stored.rows[stored.rows.length - 1]!.seq : 0;
        return h ? [...stored.rows, ...h.session.rows.filter((r) => r.seq > last)] : stored.rows;
      }
    }
    if (h) return h.session.rows;
    throw new HttpError(404, "session_not_found", `no session '${id}'`);
  }

  /** Close one session (after aborting its turn); with `remove`, delete it from storage too. */
  async close(id: string, remove: boolean): Promise<{ deleted: boolean }> {
    const h = this.held.get(id) ?? (await this.hold(id));
    h.closed = true;
    h.running?.controller.abort();
    this.hooks.aborted(id);
    await h.tail.catch(() => undefined);
    this.held.delete(id);
    this.carried.delete(id);
    await this.engine.closeSession(h.session, remove ? "deleted" : "closed");
    if (remove && this.storage) {
      await this.storage.settle();
      await this.storage.deleteSession(id);
      return { deleted: true };
    }
    return { deleted: false };
  }

  /** a turn stopped by a handing-over shutdown (not by /abort or a close): nothing of it is recorded as ended */
  private handedOver(controller: AbortController): boolean {
    return this.handingOver && controller.signal.aborted;
  }

  /**
   * Shutdown: refuse new work, then drain: running and queued turns go on for up to `drainMs` (none with
   * `handOver`). Then abort what still runs, wait for it (bounded by `waitMs`), close every session, and keep
   * every accepted turn that did not end (serve-pending.json): the next start runs it. With `handOver` (a
   * fleet), running turns stop at their step boundary and, like queued ones, are not recorded as ended: once
   * this process lets the sessions go, another instance claims them and continues.
   */
  async shutdown(waitMs: number, opts: { handOver?: boolean; drainMs?: number } = {}): Promise<{ unfinished: number; drained: number; kept: number; keptIn?: string }> {
    this.closing = true;
    this.handingOver = opts.handOver === true;
    const before = this.accepted.size;
    if (!this.handingOver && (opts.drainMs ?? 0) > 0) await this.settled(opts.drainMs!);
    const drained = before - this.accepted.size;
    this.stopping = true;
    const all = [...this.held.values()];
    for (const h of all) {
      h.running?.controller.abort();
      this.hooks.aborted(h.session.info.id);
    }
    let unfinished = 0;
    await this.settled(waitMs);
    for (const h of all) {
      if (h.running) unfinished += 1;
      await this.engine.closeSession(h.session, "exit").catch(() => undefined);
    }
    this.held.clear();
    if (this.handingOver || !this.pending) return { unfinished, drained, kept: 0 };
    const kept = this.kept.length + this.accepted.size;
    this.savePending(true);
    return { unfinished, drained, kept, ...(kept ? { keptIn: this.pending.file } : {}) };
  }

  /** Wait (at most `ms`) until every held session's turn queue is idle, its tail re-read as it grows. */
  private async settled(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((r) => (timer = setTimeout(r, ms)));
    const idle = (async () => {
      for (;;) {
        const tails = [...this.held.values()].map((h) => h.tail);
        await Promise.all(tails.map((t) => t.catch(() => undefined)));
        if ([...this.held.values()].every((h, i) => h.tail === tails[i]) && tails.length === this.held.size) return;
      }
    })();
    await Promise.race([idle, deadline]).finally(() => clearTimeout(timer));
  }
}
