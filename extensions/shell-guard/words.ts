/**
 * Static resolution of shell words: quotes, escapes, $VAR / ${VAR} / ${VAR:-default} from known
 * assignments, ~, and ${IFS} (word splitting). Anything computed at run time ($(...), unknown
 * variables, arithmetic) makes the word "unknown".
 */
import type { Node } from "web-tree-sitter";

/** Marks an unquoted IFS expansion: the word splits there. */
export const SPLIT = "\u0000";

export interface Resolved {
  value: string;
  known: boolean;
  /** on an output redirection target: `>>` appends (it does not truncate) */
  append?: boolean;
}

export interface WordEnv {
  vars: Map<string, string>;
  home: string;
}

function unescapeUnquoted(s: string): string {
  return s.replace(/\\\n/g, "").replace(/\\(.)/g, "$1");
}

function unescapeDouble(s: string): string {
  return s.replace(/\\\n/g, "").replace(/\\([$`"\\])/g, "$1");
}

function ansiC(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_m, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", f: "\f", v: "\v" };
    return map[e] ?? e;
  });
}

/** `~` follows $HOME: `HOME=/; rm -rf ~` deletes / */
export const homeOf = (env: WordEnv): string => env.vars.get("HOME") ?? env.home;

function varValue(name: string, quoted: boolean, env: WordEnv): Resolved {
  if (name === "IFS") return { value: quoted ? " " : SPLIT, known: true };
  if (name === "HOME") return { value: env.vars.get("HOME") ?? env.home, known: true };
  const v = env.vars.get(name);
  return v === undefined ? { value: `$${name}`, known: false } : { value: v, known: true };
}

export function resolveNode(node: Node, env: WordEnv, quoted = false): Resolved {
  switch (node.type) {
    case "word": {
      let t = unescapeUnquoted(node.text);
      if (!quoted && (t === "~" || t.startsWith("~/"))) t = homeOf(env) + t.slice(1);
      return { value: t, known: true };
    }
    case "number":
    case "special_variable_name":
      return { value: node.text, known: true };
    case "raw_string":
      return { value: node.text.slice(1, -1), known: true };
    case "ansi_c_string":
      return { value: ansiC(node.text.slice(2, -1)), known: true };
    case "string_content":
      return { value: unescapeDouble(node.text), known: true };
    case "string":
    case "translated_string": {
      let value = "";
      let known = true;
      for (const c of node.namedChildren) {
        if (!c) continue;
        const r = resolveNode(c, env, true);
        value += r.value;
        known &&= r.known;
      }
      // string_content nodes skip leading whitespace-only text between expansions; fall back to text
      if (known && node.namedChildren.length === 0) value = unescapeDouble(node.text.replace(/^\$?"|"$/g, ""));
      return { value, known };
    }
    case "concatenation": {
      let value = "";
      let known = true;
      for (const c of node.children) {
        if (!c) continue;
        const r = resolveNode(c, env, quoted);
        value += r.value;
        known &&= r.known;
      }
      if (!quoted && (value === "~" || value.startsWith("~/"))) value = homeOf(env) + value.slice(1);
      return { value, known };
    }
    case "simple_expansion": {
      const name = node.text.slice(1);
      return varValue(name, quoted, env);
    }
    case "expansion": {
      const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?([-=+?])(.*))?\}$/s.exec(node.text);
      if (!m) return { value: "", known: false };
      const base = varValue(m[1]!, quoted, env);
      if (m[2] === "-" || m[2] === "=") {
        if (base.known && base.value !== "") return base;
        if (!base.known) return { value: m[3] ?? "", known: true };
      }
      return m[2] ? { value: "", known: false } : base;
    }
    default:
      // command_substitution, process_substitution, arithmetic_expansion, brace_expression, ...
      return { value: node.text, known: false };
  }
}

/** Resolve an argument node into one or more words (unquoted ${IFS} splits). */
export function resolveArg(node: Node, env: WordEnv): Array<Resolved> {
  const r = resolveNode(node, env);
  if (!r.value.includes(SPLIT)) return [r];
  return r.value
    .split(SPLIT)
    .filter((s) => s !== "")
    .map((value) => ({ value, known: r.known }));
}
