/** Shared plumbing for the fake provider servers: an http server on 127.0.0.1:0, request recording, SSE. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest<B = Record<string, unknown>> {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** the body exactly as received */
  raw: string;
  /** the parsed JSON body ({} when not JSON) */
  body: B;
  /** 0-based arrival order, counted even when old requests are no longer kept */
  index: number;
}

export interface FakeServerOptions {
  /** delay before each response starts (default 0: zero latency) */
  latencyMs?: number;
  /** keep only the last N requests in `requests` (default: all; benchmarks with long runs pass a small N) */
  keep?: number;
}

/** What the provider fakes (Anthropic, OpenAI, Gemini) take alike. */
export interface FakeProviderOptions extends FakeServerOptions {
  /** when set, a request carrying another key is refused as that provider refuses it */
  apiKey?: string;
  /** characters per streamed delta (default 16) */
  chunkChars?: number;
  /** the prompt-cache model's minimum cacheable prefix in tokens (default 0; the real APIs use 1024+) */
  cacheMinTokens?: number;
}

/**
 * The scripting the provider fakes share: queued replies in order, then `respond`'s function, then the
 * fake's own `fallback`; `members(base)` are the enqueue / respond / pending / reset its server shows.
 */
export function replyScript<Req, Rep>(fallback: (req: Req) => Rep): { next(req: Req): Rep; members(base: BaseServer<unknown>): PropertyDescriptorMap } {
  const queue: Rep[] = [];
  let responder: ((req: Req) => Rep) | undefined;
  return {
    next: (req) => queue.shift() ?? responder?.(req) ?? fallback(req),
    members: (base) => ({
      enqueue: { value: (...r: Rep[]) => void queue.push(...r) },
      respond: { value: (fn: ((req: Req) => Rep) | undefined) => void (responder = fn) },
      pending: { get: () => queue.length },
      reset: {
        value: () => {
          queue.length = 0;
          responder = undefined;
          base.requests.length = 0;
        },
      },
    }),
  };
}

export interface BaseServer<B> {
  url: string;
  requests: Array<RecordedRequest<B>>;
  /** requests received so far (including ones no longer kept) */
  readonly count: number;
  close(): Promise<void>;
}

export async function startServer<B>(
  opts: FakeServerOptions,
  handle: (req: RecordedRequest<B>, res: http.ServerResponse) => void | Promise<void>,
): Promise<BaseServer<B>> {
  const requests: Array<RecordedRequest<B>> = [];
  let count = 0;
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body = {} as B;
      try {
        body = JSON.parse(raw) as B;
      } catch {
        /* not JSON: handlers answer 400 */
      }
      const rec: RecordedRequest<B> = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, raw, body, index: count++ };
      requests.push(rec);
      if (opts.keep !== undefined && requests.length > opts.keep) requests.splice(0, requests.length - opts.keep);
      const go = () =>
        Promise.resolve(handle(rec, res)).catch((e: unknown) => {
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: `fake server bug: ${(e as Error).message}` } }));
        });
      if (opts.latencyMs) setTimeout(go, opts.latencyMs);
      else void go();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get count() {
      return count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Split a string into pieces of at most n characters (at least one piece). */
export function chunks(s: string, n: number): string[] {
  if (s.length <= n) return [s];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}

/** The fakes' token estimate: 4 characters per token, rounded up. */
export function estimateTokens(s: string): number {
  return Math.ceil(s.length / 4);
}

/**
 * Write the buffered SSE text and then destroy the socket (a connection that drops mid-answer). With
 * `holdMs` the connection first stays open that long, so a client shows the partial text before the drop
 * (or is interrupted while it waits: a long hold is a stalled stream).
 */
export function writeThenDrop(res: http.ServerResponse, text: string, holdMs = 0): void {
  res.write(text, () => {
    if (holdMs <= 0) return setImmediate(() => res.socket?.destroy());
    setTimeout(() => res.socket?.destroy(), holdMs).unref();
  });
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
