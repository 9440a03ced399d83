/**
 * The sessions this server holds open: opened on first use (claimed for this process, like run --session),
 * one queue of turns per session (turns of one session run one after another; sessions run side by side),
 * each turn with its own AbortController so /abort and shutdown stop it at a step boundary.
 */
import { isSessionBusy, type EngineService, type Row, type Session, type TurnResult } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import { HttpError } from "./api.js";

interface Held {
  session: Session;
  /** the tail of this session's turn queue */
  tail: Promise<void>;
  running?: { turnId: string; controller: AbortController };
  queued: number;
  /** being closed (DELETE): its queued turns do not start */
  closed?: boolean;
}

export interface TurnHooks {
  queued(sessionId: string, turnId: string): void;
  done(sessionId: string, turnId: string, result: TurnResult | undefined, error?: string): void;
  aborted(sessionId: string): void;
}

/** What a taken-over session's model is told (a user turn: the interrupted request comes with it). */
export function takeoverPrompt(interruptedText: string): string {
  return (
    "[interrupted: the oceancode instance running your previous turn stopped (killed or crashed) in the middle of it. " +
    "Everything up to the last completed step was kept; the step in flight was lost, and a tool call it made was interrupted: " +
    "its result and effects are unknown (check before repeating it). Continue the interrupted request.]\n\n" +
    interruptedText
  );
}

export class SessionHub {
  private readonly held = new Map<string, Held>();
  private readonly opening = new Map<string, Promise<Held>>();
  private nextTurn = 1;
  private closing = false;

  constructor(
    private readonly engine: EngineService,
    private readonly storage: StorageService | undefined,
    private readonly hooks: TurnHooks,
    /** fleet mode: hand a prompt for a session another live instance holds to that instance (its turn id) */
    private readonly forward?: (id: string, text: string) => Promise<string>,
    /** fleet mode: each turn's start and end, so another instance can take a dead one's turn over */
    private readonly track?: { started(id: string, turnId: string, text: string): void; finished(id: string, turnId: string): void },
  ) {}

  /**
   * Take over a session whose turn was running on an instance that died: claim it (false when that fails:
   * its holder is alive or another instance got it), then queue a turn that tells the model what happened.
   * The session is reloaded from storage, so it continues from the last committed step; the step that was in
   * flight (its model answer and any tool call) was never committed: the model is told its tool call was
   * interrupted and its effect unknown, and nothing is re-run blindly.
   */
  async takeover(id: string, interruptedText: string, takenOver: () => Promise<boolean>): Promise<boolean> {
    if (this.closing) return false;
    try {
      await this.hold(id);
    } catch {
      return false;
    }
    if (!(await takenOver())) return false;
    await this.prompt(id, takeoverPrompt(interruptedText));
    return true;
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

  openSessions(): Session[] {
    return [...this.held.values()].map((h) => h.session);
  }

  async create(opts: { cwd: string; model: string; overrides?: Record<string, unknown> }): Promise<Session> {
    if (this.closing) throw new HttpError(503, "shutting_down", "the server is shutting down");
    const session = await this.engine.createSession(opts);
    this.held.set(session.info.id, { session, tail: Promise.resolve(), queued: 0 });
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
        .then((session) => {
          const held: Held = { session, tail: Promise.resolve(), queued: 0 };
          this.held.set(id, held);
          return held;
        })
        .catch(async (e: unknown) => {
          if (isSessionBusy(e)) throw new HttpError(409, "session_busy", `session ${id} is held by another process`);
          if (!this.storage || !(await this.storage.loadSession(id).catch(() => undefined))) throw new HttpError(404, "session_not_found", `no session '${id}'`);
          throw e;
        })
        .finally(() => this.opening.delete(id));
      this.opening.set(id, p);
    }
    return p;
  }

  /** Queue a prompt; resolves at once with its turn id (the turn runs in the background). */
  async prompt(id: string, text: string): Promise<string> {
    let h: Held;
    try {
      h = await this.hold(id);
    } catch (e) {
      if (!this.forward || (e as { code?: string }).code !== "session_busy") throw e;
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
    if (this.closing) throw new HttpError(503, "shutting_down", "the server is shutting down");
    if (h.closed) throw new HttpError(409, "session_closing", `session ${id} is being closed`);
    const turnId = `turn_${this.nextTurn++}`;
    h.queued += 1;
    this.hooks.queued(id, turnId);
    h.tail = h.tail.then(async () => {
      h.queued -= 1;
      if (this.closing || h.closed) {
        this.hooks.done(id, turnId, undefined, this.closing ? "the server shut down before this turn started" : "the session was closed before this turn started");
        return;
      }
      const controller = new AbortController();
      h.running = { turnId, controller };
      try {
        // the engine lets an idle session leave memory (engine.idle_minutes) while this process keeps its
        // claim: reopening gives the live object (a map lookup when it is still in memory)
        h.session = await this.engine.openSession(id);
        this.track?.started(id, turnId, text);
        const result = await this.engine.prompt(h.session, text, { signal: controller.signal });
        this.hooks.done(id, turnId, result, result.error);
      } catch (e) {
        this.hooks.done(id, turnId, undefined, (e as Error).message);
      } finally {
        h.running = undefined;
        this.track?.finished(id, turnId);
      }
    });
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
    await this.engine.closeSession(h.session, remove ? "deleted" : "closed");
    if (remove && this.storage) {
      await this.storage.settle();
      await this.storage.deleteSession(id);
      return { deleted: true };
    }
    return { deleted: false };
  }

  /** Shutdown: refuse new work, abort running turns, wait for them (bounded), close every session. */
  async shutdown(waitMs: number): Promise<{ unfinished: number }> {
    this.closing = true;
    const all = [...this.held.values()];
    for (const h of all) {
      h.running?.controller.abort();
      this.hooks.aborted(h.session.info.id);
    }
    let unfinished = 0;
    const settled = Promise.all(all.map((h) => h.tail.catch(() => undefined)));
    await Promise.race([settled, new Promise<void>((r) => setTimeout(r, waitMs).unref())]);
    for (const h of all) {
      if (h.running) unfinished += 1;
      await this.engine.closeSession(h.session, "exit").catch(() => undefined);
    }
    this.held.clear();
    return { unfinished };
  }
}
