/** Implementation published by the kit `oceancode/kit/serve` (moved out of extensions/serve/api.ts, which keeps the types). */
import { type RouteReply, DEFAULT_HOST } from "../api.js";

/** Throw from a handler for an error answer: `{error: {code, message}}` with this status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** True for a RouteReply (a handler's `{status, body}`), as opposed to a plain JSON body. */
export function isRouteReply(v: unknown): v is RouteReply {
  return typeof v === "object" && v !== null && typeof (v as { status?: unknown }).status === "number" && Object.keys(v).every((k) => k === "status" || k === "body" || k === "headers");
}

/**
 * `--listen <host:port>` (the pager's flag): `127.0.0.1:4096`, `[::1]:4096`, `:4096` (loopback), `4096`.
 * Throws on anything else, naming the accepted forms.
 */
export function parseListen(spec: string): { host: string; port: number } {
  const s = spec.trim();
  const bad = () => new Error(`'${spec}' is not <host:port> (e.g. 127.0.0.1:4096, [::1]:4096, :4096)`);
  let host: string | undefined;
  let port = s;
  const v6 = /^\[([^\]]+)\]:(.*)$/.exec(s);
  if (v6) {
    host = v6[1];
    port = v6[2] ?? "";
  } else if (s.includes(":")) {
    const i = s.lastIndexOf(":");
    host = s.slice(0, i) || undefined;
    port = s.slice(i + 1);
    if (host?.includes(":")) throw bad(); // an IPv6 address goes in brackets
  }
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw bad();
  return { host: host ?? DEFAULT_HOST, port: Number(port) };
}
