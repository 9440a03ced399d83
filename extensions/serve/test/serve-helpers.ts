/**
 * Drive `oceancode serve` the way a client does: the compiled CLI on an ephemeral port (--port 0, the bound
 * port read from its JSON line on stdout), real fetch, and an SSE reader that parses frames.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { CLI } from "../../../test/kit/cli.js";

export interface Served {
  url: string;
  port: number;
  proc: ChildProcess;
  stderr(): string;
  /** send a signal and wait for the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** fetch relative to the server, JSON in and out */
  api<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: T; headers: Headers }>;
}

/** `oceancode serve` (or `oceancode web`, the same server with the browser client) on a free port, once it listens. */
export async function startServe(args: string[], opts: { cwd?: string; env: NodeJS.ProcessEnv; timeoutMs?: number; command?: "serve" | "web" }): Promise<Served> {
  const proc = spawn(process.execPath, [CLI, opts.command ?? "serve", "--port", "0", ...args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in time:\n${err}`)), opts.timeoutMs ?? 20_000);
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code} before listening:\n${err}`));
    });
  });
  const info = JSON.parse(line) as { type: string; url: string; port: number };
  const served: Served = {
    url: info.url,
    port: info.port,
    proc,
    stderr: () => err,
    async stop(signal = "SIGTERM") {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
    async api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(`${info.url}${path}`, {
        method,
        headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
    },
  };
  return served;
}

export interface SseEvent {
  id?: number;
  event: string;
  data: Record<string, unknown>;
}

/** An SSE client on fetch: collects events, waits for one matching a predicate. */
export class SseReader {
  readonly events: SseEvent[] = [];
  private readonly waiters: Array<{ pred: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }> = [];
  readonly closed: Promise<void>;
  readonly status: number;

  private constructor(
    private readonly res: Response,
    private readonly ac: AbortController,
  ) {
    this.status = res.status;
    this.closed = this.pump();
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    const ac = new AbortController();
    const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: ac.signal });
    return new SseReader(res, ac);
  }

  private async pump(): Promise<void> {
    if (!this.res.body) return;
    const decoder = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of this.res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buf.indexOf("\n\n")) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const ev: SseEvent = { event: "message", data: {} };
          let data = "";
          for (const l of frame.split("\n")) {
            if (l.startsWith("id: ")) ev.id = Number(l.slice(4));
            else if (l.startsWith("event: ")) ev.event = l.slice(7);
            else if (l.startsWith("data: ")) data += l.slice(6);
          }
          if (!data) continue; // a comment (": ping")
          ev.data = JSON.parse(data) as Record<string, unknown>;
          this.events.push(ev);
          for (const w of [...this.waiters]) {
            if (w.pred(ev)) {
              this.waiters.splice(this.waiters.indexOf(w), 1);
              w.resolve(ev);
            }
          }
        }
      }
    } catch {
      // aborted by close()
    }
  }

  waitFor(pred: (e: SseEvent) => boolean, timeoutMs = 20_000): Promise<SseEvent> {
    const hit = this.events.find(pred);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching event in ${timeoutMs} ms; got: ${this.events.map((e) => e.event).join(", ")}`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (e) => {
          clearTimeout(t);
          resolve(e);
        },
      });
    });
  }

  close(): void {
    this.ac.abort();
  }
}

export const turnEndOf = (sessionId: string) => (e: SseEvent) => e.event === "turn_end" && e.data.sessionId === sessionId;
