/** An SSE client for the fleet bench: every event of GET /event (or one session's stream), stamped with its arrival time. */
import http from "node:http";
import { performance } from "node:perf_hooks";

export interface Ev {
  event: string;
  data: Record<string, unknown>;
  at: number;
  on: string;
}
export class Sse {
  private readonly req: http.ClientRequest;
  readonly ready: Promise<void>;
  constructor(
    readonly on: string,
    url: string,
    private readonly sink: (e: Ev) => void = () => undefined,
    streamPath = "/event",
  ) {
    let connected!: () => void;
    let failed!: (e: Error) => void;
    this.ready = new Promise<void>((res, rej) => ((connected = res), (failed = rej)));
    let buf = "";
    this.req = http.get(`${url}${streamPath}`, { agent: false, headers: { accept: "text/event-stream" } }, (res) => {
      connected();
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        const at = performance.now();
        buf += c;
        let end: number;
        while ((end = buf.indexOf("\n\n")) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          let event = "message";
          let data = "";
          for (const l of frame.split("\n")) {
            if (l.startsWith("event: ")) event = l.slice(7);
            else if (l.startsWith("data: ")) data += l.slice(6);
          }
          if (!data) continue;
          const ev: Ev = { event, data: JSON.parse(data) as Record<string, unknown>, at, on: this.on };
          this.sink(ev);
        }
      });
    });
    this.req.on("error", (e) => failed(e));
  }
  close(): void {
    this.req.destroy();
  }
}

/** The first event matching `pred` that `subscribe`'s streams deliver (several SSE clients feeding one listener: the first to see it). */
export function firstSeen(subscribe: (listener: (e: Ev) => void) => void, pred: (e: Ev) => boolean, timeoutMs: number, what: string): Promise<Ev> {
  return new Promise((resolve, reject) => {
    let done = false;
    const t = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs} ms`)), timeoutMs);
    subscribe((e) => {
      if (done || !pred(e)) return;
      done = true;
      clearTimeout(t);
      resolve(e);
    });
  });
}
