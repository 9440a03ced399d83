/**
 * GET /log: the server's log tail as SSE, from the obs service's `subscribe` (oceancode/api/obs). It is
 * serve's route, not obs's: obs activates at every start, and contributing a route from there would load
 * the route registry (this extension) into every command. Each line is a JSON log line the obs service
 * already redacted; it is passed through the shared redactor once more before it leaves the process.
 */
import { PassThrough } from "node:stream";
import type { ObsService } from "../obs/api.js";
import type { RouteDefinition } from "./api.js";

/** at most this many earlier lines open the stream (?recent=n) */
const MAX_RECENT = 1000;

export function logRoute(obs: () => ObsService | undefined): RouteDefinition {
  return {
    method: "GET",
    url: "/log",
    operationId: "logTail",
    summary: "the server's log as it is written (SSE, event `log`, data: one redacted JSON log line); ?recent=n first sends the last n lines",
    tags: ["server"],
    schema: {
      querystring: { type: "object", properties: { recent: { type: "integer", minimum: 0, maximum: MAX_RECENT, default: 0, description: "earlier lines to send first" } } },
      response: {
        200: { description: "text/event-stream: `event: log\\ndata: <json line>\\n\\n` per line", content: { "text/event-stream": { schema: { type: "string" } } } },
        503: { type: "object", required: ["error"], properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } } },
      },
    },
    handler: (req) => {
      const service = obs();
      if (!service) return { status: 503, body: { error: { code: "no_logger", message: "no enabled extension provides the obs service (see oceancode inspect)" } } };
      const out = new PassThrough();
      const send = (line: string) => {
        // one SSE data line per log line: a newline inside would end the field
        out.write(`event: log\ndata: ${service.redact(line).replace(/\r?\n/g, " ")}\n\n`);
      };
      out.write(": log tail\n\n");
      const recent = (req.query as { recent?: number }).recent ?? 0;
      if (recent > 0) for (const l of service.recentLines(recent)) send(l);
      const unsubscribe = service.subscribe(send);
      const ping = setInterval(() => out.write(": ping\n\n"), 15_000);
      ping.unref();
      const end = () => {
        clearInterval(ping);
        unsubscribe();
        out.end();
      };
      if (req.signal.aborted) end();
      else req.signal.addEventListener("abort", end, { once: true });
      return { status: 200, body: out, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" } };
    },
  };
}
