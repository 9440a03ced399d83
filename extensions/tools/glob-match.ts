/** A small glob matcher (`*`, `**`, `?`, `[...]`, `{a,b}`) over "/"-separated relative paths. */

const REGEX_SPECIAL = /[.+^$()|\\]/;

/** Index of the bracket/brace closing the one at `i`, or -1. */
function closing(s: string, i: number, open: string, close: string): number {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === open) depth++;
    else if (s[j] === close && --depth === 0) return j;
  }
  return -1;
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\") {
      cur += c + (s[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function source(glob: string): string {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\" && i + 1 < glob.length) {
      re += `\\${glob[++i]}`;
    } else if (c === "*") {
      if (glob[i + 1] === "*") {
        i++;
        if (glob[i + 1] === "/") {
          i++;
          re += "(?:.*/)?";
        } else re += ".*";
      } else re += "[^/]*";
    } else if (c === "?") {
      re += "[^/]";
    } else if (c === "[") {
      const j = closing(glob, i, "[", "]");
      if (j === -1) re += "\\[";
      else {
        let cls = glob.slice(i + 1, j).replace(/\\/g, "\\\\");
        if (cls.startsWith("!")) cls = `^${cls.slice(1)}`;
        re += `[${cls}]`;
        i = j;
      }
    } else if (c === "{") {
      const j = closing(glob, i, "{", "}");
      if (j === -1) re += "\\{";
      else {
        re += `(?:${splitTopLevel(glob.slice(i + 1, j)).map(source).join("|")})`;
        i = j;
      }
    } else if (REGEX_SPECIAL.test(c) || c === "}" || c === "]") {
      re += `\\${c}`;
    } else re += c;
  }
  return re;
}

export function globToRegExp(glob: string, opts: { ignoreCase?: boolean } = {}): RegExp {
  return new RegExp(`^${source(glob)}$`, opts.ignoreCase ? "i" : "");
}

export function hasGlobChars(s: string): boolean {
  return /[*?[{]/.test(s);
}

/** Split a pattern into the literal leading directories and the glob part: "src/a/**\/*.ts" -> ["src/a", "**\/*.ts"]. */
export function staticPrefix(pattern: string): { base: string; rest: string } {
  const segs = pattern.split("/");
  const base: string[] = [];
  while (segs.length > 1 && !hasGlobChars(segs[0]!)) base.push(segs.shift()!);
  return { base: base.join("/"), rest: segs.join("/") };
}
