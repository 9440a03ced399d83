/**
 * Editing the files servers are declared in, Claude Code's shapes for `add`:
 *   project -> <root>/.mcp.json mcpServers; user -> ~/.claude.json mcpServers; local -> ~/.claude.json projects[<abs root>].mcpServers
 * Edits go through jsonc-parser's modify, so every other key, comment and the formatting survive; the
 * write is atomic; a file that does not parse is refused by name and never touched.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { writeFileAtomic } from "../../../kernel/api.js";
import { JsoncSyntaxError, parseJsonc } from "../../../kernel/api.js";
import type { ServerTier } from "../api.js";
import { isObj } from "../sources/shapes.js";
import { McpEditRefused } from "../errors.js";

export type Scope = "local" | "project" | "user";

/** A refused edit (OC_ERR_MCP_EDIT): nothing was changed. */
export const EditError = (message: string) => McpEditRefused({ message });

type JsoncLib = typeof import("jsonc-parser");
let lib: JsoncLib | undefined;
const jsonc = (): JsoncLib => (lib ??= createRequire(import.meta.url)("jsonc-parser") as JsoncLib);

/** The file and JSON path (to the servers object) `add --scope` writes. */
export function scopeTarget(scope: Scope, root: string, home: string): { file: string; at: string[] } {
  const abs = path.resolve(root);
  if (scope === "project") return { file: path.join(abs, ".mcp.json"), at: ["mcpServers"] };
  if (scope === "user") return { file: path.join(home, ".claude.json"), at: ["mcpServers"] };
  return { file: path.join(home, ".claude.json"), at: ["projects", abs, "mcpServers"] };
}

/** Where a resolved copy sits in its file (the servers object's path), from the file's name and the copy's tier. */
export function declaredAt(source: string, tier: ServerTier, root: string): string[] | undefined {
  const base = path.basename(source);
  if (base === ".claude.json") return tier === "local" ? ["projects", path.resolve(root), "mcpServers"] : ["mcpServers"];
  if (base === ".mcp.json" || base === "mcp.json") return ["mcpServers"];
  if (/^opencode\.jsonc?$/.test(base)) return ["mcp"];
  if (/^oceancode\.jsonc?$/.test(base)) return ["mcp", "servers"];
  return undefined;
}

function readText(file: string): string {
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw EditError(`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? "error"}); nothing was changed`);
  }
  if (text.trim() === "") return "{}\n";
  try {
    const doc = parseJsonc(text);
    if (!isObj(doc.value)) throw EditError(`${file}: the top level is not a JSON object; fix it first, nothing was changed`);
  } catch (e) {
    if (e instanceof JsoncSyntaxError) throw EditError(`${file}:${e.line}: not valid JSON (${e.message}); fix it first, nothing was changed`);
    throw e;
  }
  return text;
}

function valueAt(text: string, at: string[]): unknown {
  let v: unknown = parseJsonc(text).value;
  for (const k of at) v = isObj(v) ? v[k] : undefined;
  return v;
}

/** A removal is not re-formatted (the neighbours keep their layout); an insertion is indented like the file. */
function write(file: string, text: string, at: string[], value: unknown): void {
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
  const edits = jsonc().modify(text, at, value, value === undefined ? {} : { formattingOptions });
  let mode = path.basename(file) === ".claude.json" ? 0o600 : 0o644;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    // a new file
  }
  const out = jsonc().applyEdits(text, edits);
  writeFileAtomic(file, out.endsWith("\n") ? out : `${out}\n`, mode);
}

/** Add one server; refuses a name the file already declares there. */
export function addServer(file: string, at: string[], name: string, entry: Record<string, unknown>): void {
  const text = readText(file);
  const servers = valueAt(text, at);
  if (servers !== undefined && !isObj(servers)) throw EditError(`${file}: ${at.join(".")} is not an object; nothing was changed`);
  if (isObj(servers) && name in servers) throw EditError(`${file} already declares '${name}' (oceancode mcp remove ${name} first)`);
  write(file, text, [...at, name], entry);
}

/** Remove one server from the servers object at `at`; false when it is not there. */
export function removeServer(file: string, at: string[], name: string): boolean {
  const text = readText(file);
  const servers = valueAt(text, at);
  if (!isObj(servers) || !(name in servers)) return false;
  write(file, text, [...at, name], undefined);
  return true;
}
