/**
 * MCP prompts as slash commands: `/mcp__<server>__<prompt> args` typed in `run` or the pager. The
 * `engine.userPrompt` tap resolves the name (each part sanitized as tool names are), maps the typed
 * arguments onto the prompt's declared arguments (`key=value` words when every word is one, else
 * positional in declared order, the last argument taking the rest; "double quotes" group words), calls
 * prompts/get and replaces the prompt with the returned messages' text (a command turn). A name no
 * connected server offers, missing required arguments or a failing prompts/get: one warning notice and
 * the prompt is sent as typed. The first prompt waits (bounded) for servers still connecting.
 */
import type { PromptInput, TurnContext } from "../../engine/api.js";
import type { McpPromptEntry } from "../api.js";
import type { McpManager } from "./manager.js";
import { mcpToolName } from "./names.js";
import { McpPromptEmpty, McpServerGone } from "../errors.js";

export interface DeclaredArg {
  name: string;
  required?: boolean;
  description?: string;
}

export interface McpPromptInfo {
  /** the slash name, without the slash: mcp__<server>__<prompt> */
  slash: string;
  server: string;
  prompt: string;
  description: string;
  arguments: DeclaredArg[];
}

const SLASH = /^\/(mcp__[A-Za-z0-9_-]+)(?:[ \t\r\n]+([\s\S]*))?$/;

export function parseMcpSlash(text: string): { name: string; args: string } | undefined {
  const m = SLASH.exec(text.replace(/^\s+/, ""));
  return m ? { name: m[1]!, args: (m[2] ?? "").trim() } : undefined;
}

/** Words of an argument string; "double quoted" spans are one word (quotes removed). */
export function splitWords(s: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2]!);
  return out;
}

/** Typed arguments -> the prompt's arguments, or the reason they do not fit. */
export function mapArgs(declared: DeclaredArg[], text: string): { args: Record<string, string> } | { error: string } {
  const words = splitWords(text);
  const names = new Set(declared.map((d) => d.name));
  const args: Record<string, string> = {};
  const keyed = words.length > 0 && words.every((w) => {
    const eq = w.indexOf("=");
    return eq > 0 && names.has(w.slice(0, eq));
  });
  if (keyed) {
    for (const w of words) {
      const eq = w.indexOf("=");
      args[w.slice(0, eq)] = w.slice(eq + 1);
    }
  } else if (words.length) {
    if (!declared.length) return { error: "it takes no arguments" };
    declared.forEach((d, i) => {
      const last = i === declared.length - 1;
      const v = last ? words.slice(i).join(" ") : words[i];
      if (v !== undefined && v !== "") args[d.name] = v;
    });
  }
  const missing = declared.filter((d) => d.required && args[d.name] === undefined).map((d) => d.name);
  if (missing.length) return { error: `missing required argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (usage: ${usage(declared)})` };
  return { args };
}

export function usage(declared: DeclaredArg[]): string {
  return declared.map((d) => (d.required ? `<${d.name}>` : `[${d.name}]`)).join(" ") || "(no arguments)";
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Every prompt of every connected server that offers prompts (for the tap and hosts' listings). */
export async function listPrompts(manager: McpManager): Promise<McpPromptInfo[]> {
  const out: McpPromptInfo[] = [];
  for (const c of manager.connected()) {
    const client = c.sdk;
    if (!client || !c.has("prompts")) continue;
    try {
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await client.listPrompts(cursor ? { cursor } : {});
        for (const p of page.prompts) {
          out.push({ slash: mcpToolName(c.name, p.name), server: c.name, prompt: p.name, description: p.description ?? "", arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...(a.required ? { required: true } : {}), ...(a.description ? { description: a.description } : {}) })) });
        }
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < 10);
    } catch {
      // a server whose prompts/list fails offers none here
    }
  }
  return out;
}

type PromptMessage = { role?: string; content?: { type?: string; text?: unknown; resource?: { uri?: unknown; text?: unknown } } };

/** The text of prompts/get's messages, in order (embedded resources' text included; images named). */
export function messagesText(messages: PromptMessage[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    const c = m.content ?? {};
    if (c.type === "text" && typeof c.text === "string") parts.push(c.text);
    else if (c.type === "resource" && c.resource) parts.push(`[resource ${String(c.resource.uri ?? "")}]${typeof c.resource.text === "string" ? `\n${c.resource.text}` : ""}`);
    else if (c.type) parts.push(`[${c.type} content]`);
  }
  return parts.join("\n\n");
}

/** The `engine.userPrompt` tap (before skills' typed slash forms). */
export function mcpPromptTap(manager: McpManager, opts: { waitMs: () => number; warn: (sessionId: string, text: string) => void }) {
  return async (input: PromptInput, tc: TurnContext): Promise<PromptInput> => {
    if (input.blocked) return input;
    const typed = parseMcpSlash(input.text);
    if (!typed) return input;
    const sid = tc.session.info.id;
    manager.start();
    await manager.settle(opts.waitMs());
    const hit = (await listPrompts(manager)).find((p) => p.slash === typed.name);
    if (!hit) {
      opts.warn(sid, `/${typed.name} is not a prompt of a connected MCP server; sent as text`);
      return input;
    }
    const mapped = mapArgs(hit.arguments, typed.args);
    if ("error" in mapped) {
      opts.warn(sid, `/${typed.name}: ${mapped.error}; sent as text`);
      return input;
    }
    const client = manager.connections.get(hit.server)?.sdk;
    try {
      if (!client) throw McpServerGone({ what: "the server disconnected" });
      const got = await client.getPrompt({ name: hit.prompt, arguments: mapped.args });
      const text = messagesText(got.messages as PromptMessage[]);
      if (!text.trim()) throw McpPromptEmpty();
      return { ...input, text };
    } catch (e) {
      opts.warn(sid, `/${typed.name}: prompts/get failed: ${message(e)}; sent as text`);
      return input;
    }
  };
}

/** The service's `prompts()`: a cache re-listed in the background at most every `everyMs`. */
export function promptCatalog(manager: McpManager, everyMs = 2000): () => McpPromptEntry[] {
  let cached: McpPromptEntry[] = [];
  let at = 0;
  let busy = false;
  return () => {
    if (!busy && manager.isStarted && Date.now() - at >= everyMs) {
      busy = true;
      at = Date.now();
      void listPrompts(manager)
        .then((all) => (cached = all.map((p) => ({ name: p.slash, server: p.server, description: p.description, usage: usage(p.arguments) }))))
        .catch(() => undefined)
        .finally(() => (busy = false));
    }
    return cached;
  };
}
