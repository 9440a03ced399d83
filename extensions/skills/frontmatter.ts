/**
 * YAML frontmatter (`---` fenced, at the top of the file). The common flat shapes are read by a small
 * parser (flat-yaml.ts); anything it does not understand goes to js-yaml, loaded on first need (a
 * thousand SKILL.md files with flat frontmatter never load it). Both give the same object. A file with no
 * frontmatter is all body; a block that does not parse as a YAML mapping is reported in `error` and the
 * caller falls back to names from the file system.
 */
import { createRequire } from "node:module";
import type { SkillFrontmatter } from "./api.js";
import { parseFlatYaml } from "./flat-yaml.js";

type YamlLib = typeof import("js-yaml");
let yamlLib: YamlLib | undefined;
/** js-yaml, on the first frontmatter the flat parser leaves to it */
export function loadYaml(text: string): unknown {
  yamlLib ??= createRequire(import.meta.url)("js-yaml") as YamlLib;
  return yamlLib.load(text);
}

/** `full`: always js-yaml (the tests compare both paths); `auto`: the flat parser first. */
export type YamlMode = "auto" | "full";

export interface Parsed {
  fm?: SkillFrontmatter;
  body: string;
  error?: string;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function bool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return undefined;
}

/** `allowed-tools` as Claude Code writes it: a YAML list or one comma / space separated string. */
function tools(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map(String).filter(Boolean);
  if (typeof v === "string") return v.split(/,\s*|\s+(?![^(]*\))/).map((s) => s.trim()).filter(Boolean);
  return undefined;
}

export function parseFrontmatter(text: string, mode: YamlMode = "auto"): Parsed {
  const src = text.replace(/^\uFEFF/, "");
  if (!src.startsWith("---")) return { body: src };
  const m = FENCE.exec(src);
  if (!m) return { body: src.replace(/^---[^\n]*\n?/, ""), error: "the frontmatter has no closing ---" };
  const body = src.slice(m[0].length);
  let data: unknown;
  try {
    data = m[1]!.trim() === "" ? {} : ((mode === "auto" ? parseFlatYaml(m[1]!) : undefined) ?? loadYaml(m[1]!));
  } catch (e) {
    const msg = e instanceof Error ? e.message.split("\n")[0]! : String(e);
    return { body, error: `the frontmatter is not valid YAML (${msg})` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) return { body, error: "the frontmatter is not a YAML mapping" };
  const o = data as Record<string, unknown>;
  const fm: SkillFrontmatter = { extra: {} };
  for (const [k, v] of Object.entries(o)) {
    if (k === "name" && typeof v === "string" && v.trim()) fm.name = v.trim();
    else if (k === "description" && v !== null && v !== undefined) fm.description = String(v).trim();
    else if (k === "argument-hint" && v !== null && v !== undefined) fm["argument-hint"] = Array.isArray(v) ? v.map((x) => `[${String(x)}]`).join(" ") : String(v);
    else if (k === "disable-model-invocation" && bool(v) !== undefined) fm["disable-model-invocation"] = bool(v)!;
    else if (k === "user-invocable" && bool(v) !== undefined) fm["user-invocable"] = bool(v)!;
    else if (k === "allowed-tools" && tools(v)) fm["allowed-tools"] = tools(v)!;
    else fm.extra[k] = v;
  }
  return { fm, body };
}

/** The first non-empty line of a body, without a leading `#` heading marker. */
export function firstLine(body: string): string {
  for (const line of body.split(/\r?\n/)) {
    const t = line.replace(/^#+\s*/, "").trim();
    if (t) return t.length > 200 ? `${t.slice(0, 197)}...` : t;
  }
  return "";
}
