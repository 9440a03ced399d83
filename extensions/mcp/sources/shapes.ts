/**
 * One server entry as written, in either dialect, to a ServerConfig:
 *   Claude Code / Cursor / oceancode: {command, args, env} (type absent or "stdio") | {type: "http"|"sse", url, headers}
 *   OpenCode:                         {type: "local", command: [...], environment, enabled} | {type: "remote", url, headers, enabled}
 * A wrong shape is an error naming the JSON path it is about; nothing is guessed.
 */
import type { ServerConfig } from "../api.js";
import { visibleLine } from "../../obs/kit.js";

/** A name tools can be prefixed with (`mcp__<name>__<tool>`) and a terminal can print. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function isObj(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** One line safe for a terminal (the kernel's safe-output kit: escapes shown as text); long values are cut. */
export function printable(s: string, max = 200): string {
  const clean = visibleLine(s.length > max ? s.slice(0, max) : s);
  return s.length > max ? `${clean}…` : clean;
}

export type Parsed = { ok: true; config: ServerConfig; off: boolean } | { ok: false; at: string[]; why: string };

function strMap(v: unknown, at: string[]): Record<string, string> | { at: string[]; why: string } {
  if (v === undefined) return {};
  if (!isObj(v)) return { at, why: "expected an object of strings" };
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== "string") return { at: [...at, k], why: "expected a string" };
    out[k] = x;
  }
  return out;
}

function strList(v: unknown, at: string[]): string[] | { at: string[]; why: string } {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return { at, why: "expected a list of strings" };
  for (const [i, x] of v.entries()) if (typeof x !== "string") return { at: [...at, String(i)], why: "expected a string" };
  return v as string[];
}

const bad = (r: unknown): r is { at: string[]; why: string } => isObj(r) && Array.isArray(r.at) && typeof r.why === "string";

/** Parse one entry; `at` is the JSON path of the entry (for the error). */
export function parseEntry(raw: unknown, at: string[]): Parsed {
  if (!isObj(raw)) return { ok: false, at, why: "expected an object: {command, args, env} or {type, url, headers}" };
  const t = raw.tool_timeout_s;
  if (t !== undefined && (typeof t !== "number" || !Number.isFinite(t) || t <= 0)) return { ok: false, at: [...at, "tool_timeout_s"], why: "expected a number of seconds above 0" };
  const parsed = parseShape(raw, at);
  if (parsed.ok && typeof t === "number") parsed.config.toolTimeoutS = t;
  return parsed;
}

function parseShape(raw: Record<string, unknown>, at: string[]): Parsed {
  const off = raw.enabled === false || raw.disabled === true;
  const type = raw.type;
  if (type === "local" || (type === undefined && Array.isArray(raw.command))) {
    const cmd = strList(raw.command, [...at, "command"]);
    if (bad(cmd)) return { ok: false, ...cmd };
    if (cmd.length === 0 || cmd[0]!.trim() === "") return { ok: false, at: [...at, "command"], why: "expected a non-empty command list" };
    const env = strMap(raw.environment ?? raw.env, [...at, raw.environment !== undefined ? "environment" : "env"]);
    if (bad(env)) return { ok: false, ...env };
    return { ok: true, off, config: { type: "stdio", command: cmd[0]!, args: cmd.slice(1), env } };
  }
  if (type === "remote" || type === "http" || type === "sse" || type === "streamable-http" || (type === undefined && raw.url !== undefined)) {
    if (typeof raw.url !== "string" || !/^https?:\/\//i.test(raw.url)) return { ok: false, at: [...at, "url"], why: "expected an http(s) URL" };
    const headers = strMap(raw.headers, [...at, "headers"]);
    if (bad(headers)) return { ok: false, ...headers };
    return { ok: true, off, config: { type: type === "sse" ? "sse" : "http", url: raw.url, headers } };
  }
  if (type === undefined || type === "stdio") {
    if (typeof raw.command !== "string" || raw.command.trim() === "") return { ok: false, at: [...at, "command"], why: "expected a command string (or a url)" };
    const args = strList(raw.args, [...at, "args"]);
    if (bad(args)) return { ok: false, ...args };
    const env = strMap(raw.env, [...at, "env"]);
    if (bad(env)) return { ok: false, ...env };
    const cwd = typeof raw.cwd === "string" ? { cwd: raw.cwd } : {};
    return { ok: true, off, config: { type: "stdio", command: raw.command, args, env, ...cwd } };
  }
  return { ok: false, at: [...at, "type"], why: `unknown type ${JSON.stringify(type).slice(0, 40)} (stdio, http, sse, local or remote)` };
}
