/**
 * `hooks add` / `hooks remove`: edit one of Claude Code's three settings files in place, keeping
 * every other key. A file that is not valid JSON is never overwritten.
 */
import fs from "node:fs";
import path from "node:path";
import { SettingsFileError } from "./errors.js";

export type Scope = "user" | "project" | "local";

export function scopeFile(scope: Scope, project: string, home: string): string {
  if (scope === "user") return path.join(home, ".claude", "settings.json");
  return path.join(project, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
}

export { SettingsFileError } from "./errors.js";

type Json = Record<string, unknown>;
interface Group {
  matcher?: string;
  hooks: Json[];
  [k: string]: unknown;
}

function load(file: string): Json {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw SettingsFileError({ message: `${file}: cannot read (${(e as Error).message})` });
  }
  if (text.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw SettingsFileError({ message: `${file}: not valid JSON (${(e as Error).message}); fix it first, nothing was changed` });
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw SettingsFileError({ message: `${file}: must hold a JSON object; fix it first, nothing was changed` });
  return v as Json;
}

function save(file: string, doc: Json): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

function groupsOf(doc: Json, event: string, file: string): Group[] {
  if (doc.hooks === undefined) doc.hooks = {};
  const hooks = doc.hooks as Json;
  if (!hooks || typeof hooks !== "object" || Array.isArray(hooks)) throw SettingsFileError({ message: `${file}: "hooks" is not an object; fix it first, nothing was changed` });
  if (hooks[event] === undefined) hooks[event] = [];
  if (!Array.isArray(hooks[event])) throw SettingsFileError({ message: `${file}: "hooks.${event}" is not a list; fix it first, nothing was changed` });
  return hooks[event] as Group[];
}

const sameMatcher = (g: Group, m: string | undefined) => (g.matcher ?? "") === (m ?? "");

export function addHandler(file: string, event: string, matcher: string | undefined, command: string, timeout?: number): void {
  const doc = load(file);
  const groups = groupsOf(doc, event, file);
  let g = groups.find((x) => x && sameMatcher(x, matcher) && Array.isArray(x.hooks));
  if (!g) {
    g = { ...(matcher !== undefined && matcher !== "" ? { matcher } : {}), hooks: [] };
    groups.push(g);
  }
  const existing = g.hooks.find((h) => h.type === "command" && h.command === command);
  if (existing) {
    if (timeout !== undefined) existing.timeout = timeout;
  } else g.hooks.push({ type: "command", command, ...(timeout !== undefined ? { timeout } : {}) });
  save(file, doc);
}

/** false when no such handler is there (nothing is written). */
export function removeHandler(file: string, event: string, matcher: string | undefined, command: string): boolean {
  if (!fs.existsSync(file)) return false;
  const doc = load(file);
  const hooks = doc.hooks as Json | undefined;
  if (!hooks || typeof hooks !== "object" || !Array.isArray(hooks[event])) return false;
  const groups = hooks[event] as Group[];
  let removed = false;
  for (const g of groups) {
    if (!g || !sameMatcher(g, matcher) || !Array.isArray(g.hooks)) continue;
    const before = g.hooks.length;
    g.hooks = g.hooks.filter((h) => !(h.type === "command" && h.command === command));
    if (g.hooks.length !== before) removed = true;
  }
  if (!removed) return false;
  const left = groups.filter((g) => !Array.isArray(g?.hooks) || g.hooks.length > 0);
  if (left.length > 0) hooks[event] = left;
  else delete hooks[event];
  save(file, doc);
  return true;
}
