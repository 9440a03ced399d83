/**
 * Reading the config files MCP servers are declared in. A file that does not exist is silence; one that
 * does not parse is one warning naming it (and its line); an entry of the wrong shape is a warning naming
 * the file, its line and the entry's JSON path, and is skipped. Every other file and entry is still read.
 */
import fs from "node:fs";
import path from "node:path";
import { ownershipOf } from "../../../kernel/api.js";
import { JsoncSyntaxError, lineOfPath, parseJsonc, type JsoncDocument } from "../../../kernel/api.js";
import type { ServerConfig, ServerTier } from "../api.js";
import { isObj, parseEntry, printable, SERVER_NAME } from "./shapes.js";

export type Warn = (message: string) => void;

/** One server as a file declares it, before trust, holds and shadowing. */
export interface Declared {
  name: string;
  tier: ServerTier;
  /** claude | cursor | opencode | oceancode | plugin */
  ecosystem: string;
  source: string;
  plugin?: string;
  /** plugin tier: the plugin was installed (or later marked) trusted */
  pluginTrusted?: boolean;
  /** declared in a project .mcp.json (Claude Code's enabledMcpjsonServers lists speak about these) */
  mcpJson: boolean;
  config: ServerConfig;
  /** the entry says `enabled: false` (or `disabled: true`) */
  off: boolean;
}

export interface ReadFile {
  file: string;
  doc: JsoncDocument;
  value: Record<string, unknown>;
}

/** Parse a JSON/JSONC file; undefined when missing or broken (broken: one warning naming file and line). */
export function readJsonFile(file: string, warn: Warn): ReadFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warn(`${printable(file)}: cannot read (${code ?? "error"}); its MCP servers are skipped`);
    return undefined;
  }
  if (text.trim() === "") return undefined;
  let doc: JsoncDocument;
  try {
    doc = parseJsonc(text);
  } catch (e) {
    const where = e instanceof JsoncSyntaxError ? `:${e.line}` : "";
    warn(`${printable(file)}${where}: not valid JSON (${printable((e as Error).message)}); its MCP servers are skipped`);
    return undefined;
  }
  if (!isObj(doc.value)) {
    warn(`${printable(file)}:1: expected a JSON object; its MCP servers are skipped`);
    return undefined;
  }
  return { file, doc, value: doc.value };
}

export interface Origin {
  tier: ServerTier;
  ecosystem: string;
  plugin?: string;
  pluginTrusted?: boolean;
  mcpJson?: boolean;
}

/** Every valid entry of the servers object found at `at` in a read file. */
export function serversAt(f: ReadFile, at: string[], origin: Origin, warn: Warn): Declared[] {
  let obj: unknown = f.value;
  for (const k of at) obj = isObj(obj) ? obj[k] : undefined;
  if (obj === undefined) return [];
  const where = (p: string[]) => {
    const line = lineOfPath(f.doc, p);
    return `${printable(f.file)}${line ? `:${line}` : ""}: ${printable(p.join("."))}`;
  };
  if (!isObj(obj)) {
    warn(`${where(at)}: expected an object of servers by name; skipped`);
    return [];
  }
  const out: Declared[] = [];
  for (const [name, raw] of Object.entries(obj)) {
    if (!SERVER_NAME.test(name)) {
      warn(`${where([...at, name])}: a server name must be letters, digits, '.', '_' or '-' (at most 64); skipped`);
      continue;
    }
    const p = parseEntry(raw, [...at, name]);
    if (!p.ok) {
      warn(`${where(p.at)}: ${p.why}; server '${name}' skipped`);
      continue;
    }
    out.push({
      name,
      tier: origin.tier,
      ecosystem: origin.ecosystem,
      source: f.file,
      ...(origin.plugin !== undefined ? { plugin: origin.plugin, pluginTrusted: origin.pluginTrusted === true } : {}),
      mcpJson: origin.mcpJson === true,
      config: p.config,
      off: p.off,
    });
  }
  return out;
}

/** Read a file and return the servers at `at` (missing or broken file: none). */
export function declaredIn(file: string, at: string[], origin: Origin, warn: Warn): Declared[] {
  const f = readJsonFile(file, warn);
  return f ? serversAt(f, at, origin, warn) : [];
}

/** The first of several alternative spellings of a file that exists (opencode.jsonc / opencode.json). */
export function firstExisting(files: string[]): string[] {
  const found = files.find((f) => fs.existsSync(f));
  return found ? [found] : [];
}

/**
 * Does `file` count as the checkout's (the repo tier)? Yes unless it is shown to be the user's own
 * (kernel/ownership.ts: a real, unlinked path in the project, not in a nested repository, and git says
 * untracked); no git, or git failing, is the repo tier.
 */
export function gitTracked(project: string, file: string): boolean {
  return ownershipOf(project, file).tier === "repo";
}
