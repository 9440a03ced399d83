/**
 * The hooks walk reader: which files hold hooks in each root, and parsing them into groups.
 * Reading runs nothing; trust is applied afterwards (registry.ts), so held sources still list.
 *   oceancode roots: settings.json, hooks.json (a plugin root: hooks/hooks.json)
 *   claude roots:    settings.json (+ settings.local.json in the project) (a plugin root: hooks/hooks.json)
 *   grok roots:      hooks/*.json
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { Reader, Root } from "../../kernel/api.js";
import type { ParseError } from "jsonc-parser";
import { lineColAt, lineOfPath, parseJsonc } from "../../kernel/api.js";
import { type HandlerSpec, type HookGroup, type HookSource } from "./api.js";
import { isHookEvent } from "./kit/shared.js";

export const READER_ID = "hooks";

/** A discovered file, before trust: status is loaded | unreadable | invalid here. */
export interface SourceItem {
  name: string;
  source: HookSource;
}

export function hookFiles(root: Root): string[] {
  if (root.tier === "bundled") return [];
  if (root.tier === "plugin") return [path.join(root.dir, "hooks", "hooks.json")];
  switch (root.ecosystem) {
    case "oceancode":
      return [path.join(root.dir, "settings.json"), path.join(root.dir, "hooks.json")];
    case "claude":
      return root.tier === "user" ? [path.join(root.dir, "settings.json")] : [path.join(root.dir, "settings.json"), path.join(root.dir, "settings.local.json")];
    case "grok": {
      const dir = path.join(root.dir, "hooks");
      try {
        return fs
          .readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => path.join(dir, f));
      } catch {
        return [];
      }
    }
    default:
      return [];
  }
}

/** A shape error names the JSON path it is about, so the message can point at its line. */
type Parsed = { groups: HookGroup[]; skipped: number } | { error: string; at: Array<string | number> };

function isObj(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

function parseHandler(h: unknown): HandlerSpec | undefined {
  if (!isObj(h)) return undefined;
  const timeout = typeof h.timeout === "number" && h.timeout > 0 ? h.timeout : undefined;
  if (h.type === "command" && typeof h.command === "string" && h.command.trim() !== "") {
    return { type: "command", command: h.command, ...(timeout ? { timeout } : {}), ...(typeof h.shell === "string" && h.shell ? { shell: h.shell } : {}) };
  }
  if (h.type === "http" && typeof h.url === "string" && /^https?:\/\//.test(h.url)) {
    const headers: Record<string, string> = {};
    if (isObj(h.headers)) for (const [k, v] of Object.entries(h.headers)) if (typeof v === "string") headers[k] = v;
    const allowed = Array.isArray(h.allowedEnvVars) ? h.allowedEnvVars.filter((x): x is string => typeof x === "string") : undefined;
    return { type: "http", url: h.url, headers, ...(allowed ? { allowedEnvVars: allowed } : {}), ...(timeout ? { timeout } : {}) };
  }
  return undefined;
}

/** Parse the `hooks` object of a settings/hooks file. Unsupported handlers are counted, never fatal. */
export function parseHooks(hooks: unknown): Parsed {
  if (!isObj(hooks)) return { error: `"hooks" must be an object of event name -> list of groups`, at: ["hooks"] };
  const groups: HookGroup[] = [];
  let skipped = 0;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) return { error: `"hooks.${event}" must be a list of groups`, at: ["hooks", event] };
    for (const [i, g] of list.entries()) {
      const inner = isObj(g) && Array.isArray(g.hooks) ? g.hooks : undefined;
      if (!inner) return { error: `every group in "hooks.${event}" needs a "hooks" list`, at: ["hooks", event, i] };
      if (!isHookEvent(event)) {
        skipped += inner.length;
        continue;
      }
      const handlers: HandlerSpec[] = [];
      for (const h of inner) {
        const spec = parseHandler(h);
        if (spec) handlers.push(spec);
        else skipped++;
      }
      const matcher = isObj(g) && typeof g.matcher === "string" ? g.matcher : undefined;
      if (handlers.length > 0) groups.push({ event, ...(matcher !== undefined ? { matcher } : {}), handlers });
    }
  }
  return { groups, skipped };
}

type JsoncLib = typeof import("jsonc-parser");
let jsoncLib: JsoncLib | undefined;

/**
 * `<file>:<line>:<column>: not valid JSON: <why>`. Claude Code reads its settings as strict JSON, so
 * does this; the position comes from a strict jsonc-parser pass (JSON.parse's message carries none on
 * every Node version), loaded only when a file is broken.
 */
export function jsonErrorAt(file: string, text: string, err: Error): string {
  jsoncLib ??= createRequire(import.meta.url)("jsonc-parser") as JsoncLib;
  const errors: ParseError[] = [];
  jsoncLib.parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const m = /at position (\d+)/.exec(err.message);
  const offset = errors[0]?.offset ?? (m ? Number(m[1]) : text.length);
  const { line, column } = lineColAt(text, offset);
  const why = err.message.replace(/ in JSON at position \d+.*$/, "").replace(/ \(line \d+ column \d+\)$/, "");
  return `${file}:${line}:${column}: not valid JSON: ${why}`;
}

/** `<file>:<line>: <why>` for a shape error, at the line of the JSON path it names. */
function shapeErrorAt(file: string, text: string, error: string, at: Array<string | number>): string {
  let line: number | undefined;
  try {
    line = lineOfPath(parseJsonc(text), at);
  } catch {
    line = undefined;
  }
  return `${file}${line ? `:${line}` : ""}: ${error}`;
}

/** Read one file. undefined when it does not exist or carries no hooks at all (a plain settings file). */
export function readSource(file: string, root: Root): HookSource | undefined {
  const base: Omit<HookSource, "status" | "groups" | "skipped"> = {
    path: file,
    tier: root.tier,
    ecosystem: root.ecosystem,
    ...(root.plugin ? { plugin: root.plugin.name, pluginRoot: root.dir } : {}),
    sharedWithClaudeCode: root.ecosystem === "claude",
  };
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    return { ...base, status: "unreadable", error: (e as Error).message, groups: [], skipped: 0 };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ...base, status: "invalid", error: jsonErrorAt(file, text, e as Error), groups: [], skipped: 0 };
  }
  if (!isObj(doc)) return { ...base, status: "invalid", error: `${file}:1: the file must hold a JSON object`, groups: [], skipped: 0 };
  if (doc.hooks === undefined) return undefined;
  const p = parseHooks(doc.hooks);
  if ("error" in p) return { ...base, status: "invalid", error: shapeErrorAt(file, text, p.error, p.at), groups: [], skipped: 0 };
  return { ...base, status: "loaded", groups: p.groups, skipped: p.skipped };
}

export const hooksReader: Reader<SourceItem> = {
  id: READER_ID,
  ecosystems: ["oceancode", "claude", "grok"],
  read(root: Root): SourceItem[] {
    const out: SourceItem[] = [];
    for (const f of hookFiles(root)) {
      const source = readSource(f, root);
      if (source) out.push({ name: `${root.tier}:${f}`, source });
    }
    return out;
  },
};
