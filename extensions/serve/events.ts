/**
 * Server-sent events: every SessionEvent (and the server's own ServerEvents) gets an id from one sequence
 * per server and goes into a ring buffer, so a client reconnecting with Last-Event-ID is sent everything
 * after it. Writing never waits for a client. A response's buffered bytes (writableLength) past the bound
 * that do not drain within a grace period (a burst of events fills any buffer for a moment: Node queues
 * writes made in one tick), or past a hard cap at once, mean the client does not keep up: it gets a
 * final `event: dropped` and is disconnected.
 *
 * In a fleet each instance start numbers its events from its own base (startAfter): an id is then only
 * meaningful to the instance run that issued it. A Last-Event-ID outside this run's range (another
 * instance's, or one from before a restart) gets a `gap` frame with reason "another instance" and no
 * replay, rather than the events that happen to carry nearby numbers here.
 */
import type { ServerResponse } from "node:http";
import { EventsRenumber } from "./errors.js";

export interface StoredEvent {
  id: number;
  sessionId: string;
  /** a sub-agent's event: the root session it runs under */
  rootId?: string;
  type: string;
  /** the SSE frame, built once for every client */
  frame: string;
}

export interface EventHubOptions {
  /** events kept for Last-Event-ID replay (default 10,000) */
  ringSize?: number;
  /** bytes a client may have waiting for longer than graceMs before it is dropped (default 1 MiB) */
  clientBufferBytes?: number;
  /** how long a client may stay past clientBufferBytes (default 2 s) */
  graceMs?: number;
  /** bytes past which a client is dropped at once (default 32 × clientBufferBytes, at least 32 MiB) */
  hardLimitBytes?: number;
  /** a comment line this often keeps proxies from closing an idle stream (default 15 s) */
  heartbeatMs?: number;
}

interface Client {
  res: ServerResponse;
  /** undefined: every session */
  sessionId?: string;
  /** one session's stream that also carries its sub-agents' events (?subagents=true) */
  subagents?: boolean;
  /** set while the client is past the bound: it must drain before this timer fires */
  overTimer?: NodeJS.Timeout;
}

const FOREIGN_ID =
  "this Last-Event-ID was not issued by this server (another instance of the fleet, or before a restart): events may have been missed; reload the session (GET /session/:id) and go on from here";

/** Does a stream (every session, one session, one with its sub-agents) carry this event? */
function wants(c: { sessionId?: string; subagents?: boolean }, ev: { sessionId: string; rootId?: string }): boolean {
  return c.sessionId === undefined || c.sessionId === ev.sessionId || (c.subagents === true && ev.rootId === c.sessionId);
}

export function frameOf(id: number, type: string, data: unknown): string {
  // JSON never contains a raw newline, so one data line carries the whole event
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class EventHub {
  private readonly ring: Array<StoredEvent | undefined>;
  /** the ids of this run are base+1, base+2, ... (0 unless a fleet gave this instance start a range) */
  private base = 0;
  private next = 1;
  private readonly clients = new Set<Client>();
  private readonly bufferBytes: number;
  private readonly hardBytes: number;
  private readonly graceMs: number;
  private readonly heartbeat: NodeJS.Timeout;
  /** clients disconnected for not keeping up (for tests, /health) */
  dropped = 0;

  constructor(opts: EventHubOptions = {}) {
    this.ring = new Array(Math.max(1, opts.ringSize ?? 10_000));
    this.bufferBytes = opts.clientBufferBytes ?? 1 << 20;
    this.hardBytes = opts.hardLimitBytes ?? Math.max(32 << 20, 32 * this.bufferBytes);
    this.graceMs = opts.graceMs ?? 2_000;
    this.heartbeat = setInterval(() => {
      for (const c of this.clients) this.write(c, ": ping\n\n");
    }, opts.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  get lastId(): number {
    return this.next - 1;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Number this run's events from base+1 (fleet mode); only before the first event. */
  startAfter(base: number): void {
    if (this.next !== this.base + 1) throw EventsRenumber({ problem: "events were already published" });
    if (!Number.isSafeInteger(base) || base < 0) throw EventsRenumber({ problem: `${base} is not a safe non-negative integer` });
    this.base = base;
    this.next = base + 1;
  }

  /** Whether `id` is one this run issued (or its base: a client that connected before the first event). */
  issued(id: number): boolean {
    return id >= this.base && id < this.next;
  }

  /** `rootId`: the event is a sub-agent's, of a session run under that root session */
  publish(sessionId: string, type: string, data: unknown, rootId?: string): void {
    const id = this.next++;
    const ev: StoredEvent = { id, sessionId, ...(rootId ? { rootId } : {}), type, frame: frameOf(id, type, data) };
    this.ring[id % this.ring.length] = ev;
    for (const c of this.clients) if (wants(c, ev)) this.write(c, ev.frame);
  }

  /** The kept events after `after` (oldest first), and whether some in between were already overwritten. */
  since(after: number, sessionId?: string, subagents?: boolean): { events: StoredEvent[]; lost: boolean } {
    const events: StoredEvent[] = [];
    const oldest = Math.max(this.base + 1, this.next - this.ring.length);
    const from = Math.max(after + 1, oldest);
    const filter = { sessionId, subagents };
    for (let id = from; id < this.next; id++) {
      const ev = this.ring[id % this.ring.length];
      if (ev && ev.id === id && wants(filter, ev)) events.push(ev);
    }
    return { events, lost: after + 1 < oldest };
  }

  /** Start a stream on `res` (already hijacked from the router): headers, the replay after lastEventId, then live events. */
  attach(res: ServerResponse, opts: { sessionId?: string; subagents?: boolean; lastEventId?: number }): void {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      // the socket ends with the stream (a dropped client is cut off, not kept for another request)
      connection: "close",
      "x-accel-buffering": "no",
    });
    const client: Client = { res, sessionId: opts.sessionId, ...(opts.subagents ? { subagents: true } : {}) };
    // the replay and the registration happen in one tick: no event can fall between them
    if (opts.lastEventId !== undefined && !this.issued(opts.lastEventId)) {
      // not an id of this run: nothing here can be matched to it. The gap carries this run's last id, so
      // a client that comes back here resumes from what it is sent next
      res.write(frameOf(this.lastId, "gap", { after: opts.lastEventId, reason: "another instance", lastId: this.lastId, message: FOREIGN_ID }));
    } else if (opts.lastEventId !== undefined) {
      const { events, lost } = this.since(opts.lastEventId, opts.sessionId, opts.subagents);
      if (lost) res.write(frameOf(0, "gap", { after: opts.lastEventId, reason: "buffer", oldestKept: Math.max(this.base + 1, this.next - this.ring.length) }));
      for (const ev of events) res.write(ev.frame);
    } else res.write(": connected\n\n");
    this.clients.add(client);
    const gone = () => {
      clearTimeout(client.overTimer);
      this.clients.delete(client);
    };
    res.on("close", gone);
    res.on("error", gone);
  }

  private write(c: Client, frame: string): void {
    if (c.res.writableEnded || c.res.destroyed) {
      this.clients.delete(c);
      return;
    }
    if (c.res.writableLength > this.hardBytes) return this.drop(c);
    c.res.write(frame);
    if (c.res.writableLength > this.bufferBytes && !c.overTimer) {
      c.overTimer = setTimeout(() => {
        c.overTimer = undefined;
        if (c.res.writableLength > this.bufferBytes) this.drop(c);
      }, this.graceMs);
      c.overTimer.unref();
      c.res.once("drain", () => {
        clearTimeout(c.overTimer);
        c.overTimer = undefined;
      });
    }
  }

  /** Not keeping up: a last event that says so, then the connection goes (the client may reconnect with Last-Event-ID). */
  private drop(c: Client): void {
    if (!this.clients.delete(c)) return;
    clearTimeout(c.overTimer);
    this.dropped += 1;
    c.res.end(`event: dropped\ndata: ${JSON.stringify({ reason: "the client did not keep up", bufferedBytes: c.res.writableLength, lastEventId: this.lastId })}\n\n`);
    // nothing more is written to it; a client that never reads would hold the socket and its buffer forever:
    // it has 30 s to read its backlog and the final event, then the socket is cut
    setTimeout(() => c.res.destroy(), 30_000).unref();
  }

  /** Close every stream (server shutdown). */
  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const c of this.clients) {
      clearTimeout(c.overTimer);
      c.res.end();
      setTimeout(() => c.res.destroy(), 1_000).unref();
    }
    this.clients.clear();
  }
}
