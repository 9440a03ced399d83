/**
 * A rule file's frontmatter, only the keys that decide whether it loads:
 *   paths:       Claude Code / OpenCode, a string or a YAML list of globs
 *   globs:       Cursor .mdc, a string (comma separated) or a list
 *   alwaysApply: Cursor .mdc, true | false
 * Parsed as skills parse theirs (oceancode/api/skills readFrontmatter); Cursor writes `globs: *.ts` unquoted, which is not valid YAML (an alias), so
 * when YAML refuses the block the three keys are read line by line instead. The body is the rest, verbatim.
 */
import { readFrontmatter } from "../skills/kit.js";

export interface RuleFrontmatter {
  /** the globs of `paths` or `globs`; undefined when the rule has no scope */
  scope?: string[];
  alwaysApply?: boolean;
  body: string;
  /** why the frontmatter could not be read (the file still loads, unscoped) */
  error?: string;
}

function globList(v: unknown): string[] | undefined {
  const raw = Array.isArray(v) ? v.map(String) : typeof v === "string" ? v.split(",") : [];
  const out = raw.map((s) => s.trim().replace(/^["']|["']$/g, "")).filter(Boolean);
  return out.length ? out : undefined;
}

function bool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
  return undefined;
}

/** The three keys from plain `key: value` lines (and `- item` lines under paths:/globs:). */
function byLines(block: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let listKey: string | undefined;
  for (const line of block.split(/\r?\n/)) {
    const item = /^\s+-\s*(.+)$/.exec(line);
    if (item && listKey) {
      (out[listKey] as string[]).push(item[1]!.trim());
      continue;
    }
    listKey = undefined;
    const kv = /^(paths|globs|alwaysApply)\s*:\s*(.*)$/.exec(line);
    if (!kv) continue;
    if (kv[2]!.trim() !== "") out[kv[1]!] = kv[2]!.trim();
    else {
      listKey = kv[1]!;
      out[listKey] = [];
    }
  }
  return out;
}

export function parseRule(text: string): RuleFrontmatter {
  const r = readFrontmatter(text);
  // no closed block: the whole file is the rule's text
  if (r.block === undefined) return { body: text.replace(/^\uFEFF/, ""), ...(r.error ? { error: r.error } : {}) };
  let data = r.data;
  let error: string | undefined;
  if (r.error) {
    data = byLines(r.block);
    if (!Object.keys(data).length) error = "the frontmatter is not valid YAML";
  }
  const scope = globList(data.paths) ?? globList(data.globs);
  const alwaysApply = bool(data.alwaysApply);
  return { body: r.body, ...(scope ? { scope } : {}), ...(alwaysApply !== undefined ? { alwaysApply } : {}), ...(error ? { error } : {}) };
}
