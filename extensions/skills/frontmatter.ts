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
import { type FrontmatterData } from "./api.js";
export { type FrontmatterData } from "./api.js";

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

/** `---` fenced at the top; the block may be empty (`---\n---`) */
const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

export function readFrontmatter(text: string, mode: YamlMode = "auto"): FrontmatterData {
  const src = text.replace(/^\uFEFF/, "");
  if (!src.startsWith("---")) return { data: {}, body: src };
  const m = FENCE.exec(src);
  if (!m) return { data: {}, body: src.replace(/^---[^\n]*\n?/, ""), error: "the frontmatter has no closing ---" };
  const block = m[1] ?? "";
  const body = src.slice(m[0].length);
  let data: unknown;
  try {
    data = block.trim() === "" ? {} : ((mode === "auto" ? parseFlatYaml(block) : undefined) ?? loadYaml(block));
  } catch (e) {
    const msg = e instanceof Error ? e.message.split("\n")[0]! : String(e);
    return { data: {}, body, block, error: `the frontmatter is not valid YAML (${msg})` };
  }
  if (data === null || data === undefined) return { data: {}, body, block };
  if (typeof data !== "object" || Array.isArray(data)) return { data: {}, body, block, error: "the frontmatter is not a YAML mapping" };
  return { data: data as Record<string, unknown>, body, block };
}

function bool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (v === "true") return true;
  if (v === "false") return false;
  return undefined;
}

/** `allowed-tools` (and an agent's `tools`) as Claude Code writes it: a YAML list or one comma / space separated string (`Bash(git *)` stays one name). */
export function toolList(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter(Boolean);
  if (typeof v === "string") return v.split(/,\s*|\s+(?![^(]*\))/).map((s) => s.trim()).filter(Boolean);
  return undefined;
}

export function parseFrontmatter(text: string, mode: YamlMode = "auto"): Parsed {
  const r = readFrontmatter(text, mode);
  if (r.error) return { body: r.body, error: r.error };
  if (r.block === undefined) return { body: r.body };
  const fm: SkillFrontmatter = { extra: {} };
  for (const [k, v] of Object.entries(r.data)) {
    if (k === "name" && typeof v === "string" && v.trim()) fm.name = v.trim();
    else if (k === "description" && v !== null && v !== undefined) fm.description = String(v).trim();
    else if (k === "argument-hint" && v !== null && v !== undefined) fm["argument-hint"] = Array.isArray(v) ? v.map((x) => `[${String(x)}]`).join(" ") : String(v);
    else if (k === "disable-model-invocation" && bool(v) !== undefined) fm["disable-model-invocation"] = bool(v)!;
    else if (k === "user-invocable" && bool(v) !== undefined) fm["user-invocable"] = bool(v)!;
    else if (k === "allowed-tools" && toolList(v)) fm["allowed-tools"] = toolList(v)!;
    else fm.extra[k] = v;
  }
  return { fm, body: r.body };
}

/** The first non-empty line of a body, without a leading `#` heading marker. */
export function firstLine(body: string): string {
  for (const line of body.split(/\r?\n/)) {
    const t = line.replace(/^#+\s*/, "").trim();
    if (t) return t.length > 200 ? `${t.slice(0, 197)}...` : t;
  }
  return "";
}
