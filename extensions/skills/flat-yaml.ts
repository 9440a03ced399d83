/**
 * The common frontmatter shapes, parsed without js-yaml: a flat mapping of `key: value` lines whose values
 * are plain or simply quoted scalars, `[a, b]` flow lists of plain scalars, or block lists (`- item`)
 * of them. Anything else (nested maps, multi-line and folded scalars, anchors, tags, escapes, comments
 * after a value, numbers other than plain decimals, dates …) answers undefined, and the caller hands the
 * whole block to js-yaml. Where this parser answers, it answers what js-yaml's default schema would
 * (extensions/skills/test/frontmatter.test.ts runs both on the same inputs).
 */

/** `undefined`: not understood here; ask js-yaml. */
export type FlatResult = Record<string, unknown> | undefined;

const KEY_LINE = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:[ \t]+(.*))?$/;
const ITEM_LINE = /^( *)-(?:[ \t]+(.*))?$/;
/** the first characters that make a YAML scalar something other than a plain string */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;
const NOT_UNDERSTOOD = Symbol("not understood");
type Scalar = string | number | boolean | null | typeof NOT_UNDERSTOOD;

/** A plain scalar as the YAML 1.2 core schema (js-yaml's default) reads it. */
function plain(v: string, inFlow: boolean): Scalar {
  if (v === "" || v === "~" || v === "null" || v === "Null" || v === "NULL") return null;
  if (v === "true" || v === "True" || v === "TRUE") return true;
  if (v === "false" || v === "False" || v === "FALSE") return false;
  // numbers: plain decimals only; anything else that starts like a number (0x1, 1_000, 1e3, dates) goes to js-yaml
  if (/^[-+.]?[0-9]/.test(v) || /^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/.test(v)) {
    if (/^(0|-?[1-9][0-9]{0,14})$/.test(v)) return Number(v);
    if (/^-?(0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/.test(v)) return Number(v);
    return NOT_UNDERSTOOD;
  }
  if (INDICATOR.test(v) || /\s#|:\s|:$|\t/.test(v)) return NOT_UNDERSTOOD;
  if (inFlow && /[,:[\]{}]/.test(v)) return NOT_UNDERSTOOD;
  return v;
}

/** One value: a quoted string without escapes, or a plain scalar. */
function scalar(raw: string, inFlow = false): Scalar {
  const v = raw.trim();
  if (v.startsWith('"')) return /^"([^"\\]*)"$/.test(v) && !/[\t]/.test(v) ? v.slice(1, -1) : NOT_UNDERSTOOD;
  if (v.startsWith("'")) return /^'([^']*)'$/.test(v) && !/[\t]/.test(v) ? v.slice(1, -1) : NOT_UNDERSTOOD;
  return plain(v, inFlow);
}

/** `[a, b, "c"]`: a flow list of scalars on one line. */
function flowList(v: string): unknown[] | typeof NOT_UNDERSTOOD {
  const inner = v.slice(1, -1);
  if (/[[\]{}#]/.test(inner)) return NOT_UNDERSTOOD;
  if (inner.trim() === "") return [];
  const out: unknown[] = [];
  for (const part of inner.split(",")) {
    if (part.trim() === "" || /["']/.test(part.trim().slice(1, -1))) return NOT_UNDERSTOOD;
    const s = scalar(part, true);
    if (s === NOT_UNDERSTOOD || s === null) return NOT_UNDERSTOOD;
    out.push(s);
  }
  return out;
}

/** a blank line or a whole-line comment (spaces only before it; a tab is js-yaml's to judge) */
function isSkippable(line: string): boolean {
  return line === "" || /^ *(#.*)?$/.test(line);
}

/** Trailing spaces off (no regex: `/ +$/` tries every position of the line). */
function trimSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 32) end--;
  return end === line.length ? line : line.slice(0, end);
}

export function parseFlatYaml(src: string): FlatResult {
  const lines = src.split("\n");
  for (let k = 0; k < lines.length; k++) if (lines[k]!.endsWith("\r")) lines[k] = lines[k]!.slice(0, -1);
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isSkippable(line)) {
      i++;
      continue;
    }
    const m = KEY_LINE.exec(trimSpaces(line));
    if (!m || m[1] === "__proto__" || seen.has(m[1]!)) return undefined;
    const key = m[1]!;
    seen.add(key);
    const raw = (m[2] ?? "").trim();
    i++;
    if (raw === "") {
      // a block list below the key, or null
      const items: unknown[] = [];
      let indent: number | undefined;
      while (i < lines.length) {
        const l = lines[i]!;
        if (isSkippable(l)) {
          i++;
          continue;
        }
        const it = ITEM_LINE.exec(trimSpaces(l));
        if (!it) break;
        if (indent !== undefined && it[1]!.length !== indent) return undefined;
        indent = it[1]!.length;
        const s = scalar(it[2] ?? "");
        if (s === NOT_UNDERSTOOD || s === null) return undefined;
        items.push(s);
        i++;
      }
      // what follows must be the next top-level key (an indented line is a nested map: js-yaml's)
      if (i < lines.length && /^\s/.test(lines[i]!)) return undefined;
      out[key] = items.length ? items : null;
      continue;
    }
    // a continuation line (a multi-line plain scalar) is js-yaml's
    if (i < lines.length && /^\s+\S/.test(lines[i]!) && !isSkippable(lines[i]!)) return undefined;
    if (raw.startsWith("[")) {
      if (!raw.endsWith("]")) return undefined;
      const list = flowList(raw);
      if (list === NOT_UNDERSTOOD) return undefined;
      out[key] = list;
      continue;
    }
    const s = scalar(raw);
    if (s === NOT_UNDERSTOOD) return undefined;
    out[key] = s;
  }
  return out;
}
