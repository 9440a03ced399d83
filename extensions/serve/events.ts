/**
 * Server-sent events: every SessionEvent (and the server's own ServerEvents) gets an id from one sequence
 * per server and goes into a ring buffer, so a client reconnecting with Last-Event-ID is sent everything
 * after it. Writing never waits for a client: a response's buffered bytes (writableLength) past the bound
 * mean the client does not keep up, and it gets a final `event: dropped` and is disconnected.
 */
import type { ServerResponse } from "node:http";

export interface StoredEvent {
  id: number;
  sessionId: string;
  type: string;
  /** the SSE frame, built once for every client */
  frame: string;
}

export interface EventHubOptions {
  /** events kept for Last-Event-ID replay (default 10,000) */
  ringSize?: number;
  /** bytes a client may have waiting before it is dropped (default 1 MiB) */
  clientBufferBytes?: number;
  /** a comment line this often keeps proxies from closing an idle stream (default 15 s) */
  heartbeatMs?: number;
}

interface Client {
  res: ServerResponse;
  /** undefined: every session */
  sessionId?: string;
}

export function frameOf(id: number, type: string, data: unknown): string {
  // JSON never contains a raw newline, so one data line carries the whole event
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class EventHub {
  private readonly ring: Array<StoredEvent | undefined>;
  private next = 1;
  private readonly clients = new Set<Client>();
  private readonly bufferBytes: number;
  private readonly heartbeat: NodeJS.Timeout;
  /** clients disconnected for not keeping up (for tests, /health) */
  dropped = 0;

  constructor(opts: EventHubOptions = {}) {
    this.ring = new Array(Math.max(1, opts.ringSize ?? 10_000));
    this.bufferBytes = opts.clientBufferBytes ?? 1 << 20;
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

  publish(sessionId: string, type: string, data: unknown): void {
    const id = this.next++;
    const ev: StoredEvent = { id, sessionId, type, frame: frameOf(id, type, data) };
    this.ring[id % this.ring.length] = ev;
    for (const c of this.clients) if (c.sessionId === undefined || c.sessionId === sessionId) this.write(c, ev.frame);
  }

  /** The kept events after `after` (oldest first), and whether some in between were already overwritten. */
  since(after: number, sessionId?: string): { events: StoredEvent[]; lost: boolean } {
    const events: StoredEvent[] = [];
    const oldest = Math.max(1, this.next - this.ring.length);
    const from = Math.max(after + 1, oldest);
    for (let id = from; id < this.next; id++) {
      const ev = this.ring[id % this.ring.length];
      if (ev && ev.id === id && (sessionId === undefined || ev.sessionId === sessionId)) events.push(ev);
    }
    return { events, lost: after + 1 < oldest };
  }

  /** Start a stream on `res` (already hijacked from the router): headers, the replay after lastEventId, then live events. */
  attach(res: ServerResponse, opts: { sessionId?: string; lastEventId?: number }): void {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    const client: Client = { res, sessionId: opts.sessionId };
    // the replay and the registration happen in one tick: no event can fall between them
    if (opts.lastEventId !== undefined) {
      const { events, lost } = this.since(opts.lastEventId, opts.sessionId);
      if (lost) res.write(frameOf(0, "gap", { after: opts.lastEventId, oldestKept: Math.max(1, this.next - this.ring.length) }));
      for (const ev of events) res.write(ev.frame);
    } else res.write(": connected\n\n");
    this.clients.add(client);
    const gone = () => this.clients.delete(client);
    res.on("close", gone);
    res.on("error", gone);
  }

  private write(c: Client, frame: string): void {
    if (c.res.writableEnded || c.res.destroyed) {
      this.clients.delete(c);
      return;
    }
    if (c.res.writableLength > this.bufferBytes) {
      // not keeping up: a last event that says so, then the connection goes (the client may reconnect with Last-Event-ID)
      this.clients.delete(c);
      this.dropped += 1;
      c.res.end(`event: dropped\ndata: ${JSON.stringify({ reason: "the client did not keep up", bufferedBytes: c.res.writableLength, lastEventId: this.lastId })}\n\n`);
      // a client that never reads would hold the socket forever: give the final event a moment, then cut
      setTimeout(() => c.res.destroy(), 5_000).unref();
      return;
    }
    c.res.write(frame);
  }

  /** Close every stream (server shutdown). */
  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const c of this.clients) {
      c.res.end();
      setTimeout(() => c.res.destroy(), 1_000).unref();
    }
    this.clients.clear();
  }
}
