/** The server's guard: who may bind where, and HTTP basic auth compared in constant time. */
import crypto from "node:crypto";
import net from "node:net";
import { SERVE_AUTH_REQUIRED } from "./api.js";

export const DEFAULT_USERNAME = "oceancode";
export const REALM = 'Basic realm="oceancode"';

/** 127.0.0.0/8, ::1 (and its IPv4-mapped form) and "localhost" reach only this machine; anything else may be reachable from outside. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost") return true;
  if (net.isIPv4(h)) return h.startsWith("127.");
  if (net.isIPv6(h)) return h === "::1" || h.startsWith("::ffff:127.");
  return false;
}

export interface Credentials {
  username: string;
  password: string;
}

/** The server password from the environment (OC_SERVER_PASSWORD, user OC_SERVER_USERNAME or "oceancode"), if set. */
export function credentialsFrom(env: NodeJS.ProcessEnv): Credentials | undefined {
  const password = env.OC_SERVER_PASSWORD;
  if (!password) return undefined;
  return { username: env.OC_SERVER_USERNAME || DEFAULT_USERNAME, password };
}

/** Refuse a non-loopback bind without a password (both entry points call this through startServer). */
export function checkBind(host: string, creds: Credentials | undefined): void {
  if (creds || isLoopback(host)) return;
  throw Object.assign(new Error(`refusing to listen on ${host} without a password: a non-loopback address is reachable from other machines; set OC_SERVER_PASSWORD (user OC_SERVER_USERNAME, default ${DEFAULT_USERNAME}) or bind 127.0.0.1`), {
    code: SERVE_AUTH_REQUIRED,
  });
}

// hashing first gives equal-length buffers, so timingSafeEqual never throws and the length leaks nothing
const digest = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest();

/** A checker of `Authorization` headers against the credentials (always true without them). */
export function basicAuth(creds: Credentials | undefined): (header: string | undefined) => boolean {
  if (!creds) return () => true;
  const user = digest(creds.username);
  const pass = digest(creds.password);
  return (header) => {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
    const decoded = m ? Buffer.from(m[1]!, "base64").toString("utf8") : "";
    const colon = decoded.indexOf(":");
    const u = colon >= 0 ? decoded.slice(0, colon) : "";
    const p = colon >= 0 ? decoded.slice(colon + 1) : "";
    // both compared every time (no early exit on a wrong user name)
    const okUser = crypto.timingSafeEqual(digest(u), user);
    const okPass = crypto.timingSafeEqual(digest(p), pass);
    return m !== null && colon >= 0 && okUser && okPass;
  };
}

/** The hostname of a Host header or an Origin URL ("[::1]:4096" -> "::1"), lower case; undefined when unreadable. */
function hostnameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    return new URL(isOrigin ? value : `http://${value}`).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Why a request to a server without a password is refused, or undefined when it may go on. Such a server
 * is bound to loopback, but a web page the user opens can still reach it: by DNS rebinding (a name of
 * the page's that resolves to 127.0.0.1, so the browser sends that name as Host) or by a cross-site
 * request (the page's Origin). Either would let any site run prompts, and so tools, here. Only loopback
 * names are taken as Host and Origin; a client that sends no Origin (curl, scripts, the typed client)
 * is not a browser page.
 */
export function foreignRequest(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const host = typeof headers.host === "string" ? headers.host : undefined;
  if (host !== undefined) {
    const name = hostnameOf(host, false);
    if (!name || !isLoopback(name)) return `Host '${host.slice(0, 100)}' is not this machine's loopback name (a server without OC_SERVER_PASSWORD answers only localhost, 127.0.0.1 and [::1])`;
  }
  const origin = typeof headers.origin === "string" ? headers.origin : undefined;
  if (origin !== undefined && origin !== "null") {
    const name = hostnameOf(origin, true);
    if (!name || !isLoopback(name)) return `requests from the web page ${origin.slice(0, 100)} are refused (a server without OC_SERVER_PASSWORD takes no cross-site requests)`;
  } else if (origin === "null") return "requests from an opaque origin (a sandboxed page or a file) are refused by a server without OC_SERVER_PASSWORD";
  return undefined;
}
