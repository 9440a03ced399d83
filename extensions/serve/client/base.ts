/**
 * What every generated client method stands on: one JSON request (basic auth when a password is given,
 * path parameters encoded, query strings built, `{error: {code, message}}` answers thrown as
 * ClientHttpError) and the server-sent event stream as an async iterator that resumes with
 * `Last-Event-ID` when the connection drops.
 */
export interface ClientOptions {
  /** e.g. http://127.0.0.1:4096 */
  baseUrl: string;
  /** basic auth (OC_SERVER_USERNAME, default "oceancode") */
  username?: string;
  /** basic auth (OC_SERVER_PASSWORD); without it no Authorization header is sent */
  password?: string;
  /** another fetch (tests, proxies); default the global one */
  fetch?: typeof fetch;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** An error answer: the status and the server's `{error: {code, message}}`. */
export class ClientHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = "ClientHttpError";
  }
}

/** One server-sent event as it came: its id, its event name and its JSON data parsed. */
export interface ServerSentEvent<T = unknown> {
  id?: string;
  event: string;
  data: T;
}

type Query = Record<string, string | number | boolean | undefined>;

export class ClientBase {
  protected readonly baseUrl: string;
  private readonly auth?: string;
  private readonly doFetch: typeof fetch;

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    if (opts.password !== undefined) this.auth = `Basic ${Buffer.from(`${opts.username ?? "oceancode"}:${opts.password}`).toString("base64")}`;
    this.doFetch = opts.fetch ?? fetch;
  }

  protected url(template: string, path: Record<string, string | number> = {}, query: Query = {}): string {
    const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = path[name];
      if (v === undefined) throw new Error(`missing path parameter '${name}' for ${template}`);
      return encodeURIComponent(String(v));
    });
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
    const qs = q.toString();
    return `${this.baseUrl}${filled}${qs ? `?${qs}` : ""}`;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.auth ? { authorization: this.auth } : {}), ...extra };
  }

  /** One request; a JSON answer is parsed, any other is returned as text. */
  protected async call<T>(method: string, template: string, input: { path?: Record<string, string | number>; query?: Query; body?: unknown }, opts: CallOptions = {}): Promise<T> {
    const res = await this.doFetch(this.url(template, input.path, input.query), {
      method,
      headers: this.headers(input.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const text = await res.text();
    const json = (res.headers.get("content-type") ?? "").includes("json") && text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) {
      const err = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new ClientHttpError(res.status, err?.code ?? "http_error", err?.message ?? (text.slice(0, 300) || res.statusText));
    }
    return (json ?? text) as T;
  }

  /**
   * A server-sent event stream (GET). Resumes after a dropped connection with the last id it saw, so no
   * event is missed while the server still holds it; ends when `signal` aborts or the server ends it.
   */
  protected async *stream<T>(template: string, path: Record<string, string | number> = {}, opts: { lastEventId?: string; signal?: AbortSignal; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<T>> {
    let last = opts.lastEventId;
    for (;;) {
      const res = await this.doFetch(this.url(template, path), {
        headers: this.headers({ accept: "text/event-stream", ...(last !== undefined ? { "last-event-id": last } : {}) }),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      if (!res.ok || !res.body) throw new ClientHttpError(res.status, "stream_refused", await res.text().catch(() => res.statusText));
      const decoder = new TextDecoder();
      let buf = "";
      let ended = false;
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          for (let cut = buf.indexOf("\n\n"); cut >= 0; cut = buf.indexOf("\n\n")) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const ev = parseBlock<T>(block);
            if (!ev) continue;
            if (ev.id !== undefined) last = ev.id;
            yield ev;
          }
        }
        ended = true;
      } catch (e) {
        if (opts.signal?.aborted) return;
        if (opts.reconnect === false) throw e;
      }
      if (opts.signal?.aborted || (ended && opts.reconnect === false)) return;
      if (ended && opts.reconnect !== true) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** One `id:` / `event:` / `data:` block; comments and blocks without data are skipped. */
export function parseBlock<T>(block: string): ServerSentEvent<T> | undefined {
  let id: string | undefined;
  let event = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const i = line.indexOf(":");
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return undefined;
  const text = data.join("\n");
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text itself
  }
  return { ...(id !== undefined ? { id } : {}), event, data: parsed as T };
}
