/**
 * The command strings inline code hands to a shell, where they are literals: os.system('rm -rf x'),
 * subprocess.run(['rm', '-rf', 'x']), execSync("…"), spawn('make', ['all']), system("…"), `…`, qx{…},
 * %x(…). One literal is a shell script; several (or a list) are an argv, quoted back into one
 * command line. An argument that is not a plain literal (a variable, a concatenation, an
 * interpolating string) gives nothing: the caller asks anyway, it just cannot look further.
 */
import type { Lang } from "./inline.js";

const CALLS: Record<Lang, RegExp> = {
  python: /(?:(?:\bos|\))\s*\.\s*(?:system|popen)|\bsubprocess\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\s*\(/g,
  js: /\b(?:execSync|execFileSync|spawnSync|execFile|spawn|exec|Bun\s*\.\s*spawn(?:Sync)?|Deno\s*\.\s*Command)\s*\(/g,
  perl: /\b(?:system|exec)\b\s*\(?/g,
  ruby: /\b(?:system|exec|spawn|IO\s*\.\s*popen)\b\s*\(?/g,
  php: /\b(?:shell_exec|exec|system|passthru|popen|proc_open)\s*\(/g,
};

/** Backtick-like forms whose body is the command: `…` (perl, ruby, php), qx{…} (perl), %x{…} (ruby). */
const QUOTED: Partial<Record<Lang, RegExp>> = {
  perl: /`([^`]*)`|\bqx\s*([{([<])([^})\]>]*)[})\]>]|\bqx\s*([^\w\s])(.*?)\4/g,
  ruby: /`([^`]*)`|%x\s*([{([<])([^})\]>]*)[})\]>]|%x\s*([^\w\s])(.*?)\4/g,
  php: /`([^`]*)`/g,
};

/** Does a string body interpolate (so its value is only known at run time)? */
function interpolates(body: string, quote: string, prefix: string, lang: Lang): boolean {
  if (lang === "python") return prefix.toLowerCase().includes("f") && /\{[^{]/.test(body);
  if (lang === "js") return quote === "`" && body.includes("${");
  if (quote === "'") return false;
  return /\$[\w{]|#\{|@\w/.test(body);
}

function unescape(body: string, quote: string): string {
  if (quote === "'") return body.replace(/\\(['\\])/g, "$1");
  return body.replace(/\\(.)/g, (_m, c: string) => ({ n: "\n", t: "\t" })[c] ?? c);
}

/** Parse the arguments that follow a call head: literals and lists of literals, up to the first other thing. */
function literalArgs(code: string, from: number, lang: Lang): { words: string[]; list: boolean } | undefined {
  const words: string[] = [];
  let list = false;
  let i = from;
  const ws = (): void => {
    while (i < code.length && /\s/.test(code[i]!)) i++;
  };
  const literal = (): string | undefined => {
    ws();
    const pm = /^[rRbBuUfF]{0,2}(?=["'`])/.exec(code.slice(i, i + 3));
    const prefix = lang === "python" && pm ? pm[0] : "";
    const q = code[i + prefix.length];
    if (q !== '"' && q !== "'" && !(q === "`" && lang === "js")) return undefined;
    let j = i + prefix.length + 1;
    let body = "";
    while (j < code.length && code[j] !== q) {
      if (code[j] === "\\" && j + 1 < code.length) body += code[j++];
      body += code[j++];
    }
    if (j >= code.length || interpolates(body, q, prefix, lang)) return undefined;
    i = j + 1;
    return prefix.toLowerCase().includes("r") ? body : unescape(body, q);
  };
  for (;;) {
    ws();
    if (code[i] === "[") {
      i++;
      list = true;
      for (;;) {
        ws();
        if (code[i] === "]") break;
        const w = literal();
        if (w === undefined) return undefined;
        words.push(w);
        ws();
        if (code[i] === ",") i++;
      }
      i++;
    } else {
      const w = literal();
      if (w === undefined) break;
      words.push(w);
    }
    ws();
    if (code[i] !== ",") break;
    i++;
  }
  ws();
  // what follows must end the argument list: `)`, an options object, a keyword argument, `;` or the end
  const rest = code.slice(i, i + 40);
  if (!words.length || !(rest === "" || /^([);{\n]|[A-Za-z_]\w*\s*=[^=]|do\b|if\b|or\b|and\b|\|\|)/.test(rest))) return undefined;
  return { words, list: list || words.length > 1 };
}

const quoteWord = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** Every shell command the code runs that can be read from a literal. */
export function extractCalls(code: string, lang: Lang): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(CALLS[lang])) {
    const args = literalArgs(code, m.index + m[0].length, lang);
    if (args) out.push(args.list ? args.words.map(quoteWord).join(" ") : args.words[0]!);
  }
  const quoted = QUOTED[lang];
  if (quoted) {
    for (const m of code.matchAll(quoted)) {
      const body = m[1] ?? m[3] ?? m[5] ?? "";
      if (!/\$[\w{]|#\{|@\w/.test(body)) out.push(body);
    }
  }
  return out.slice(0, 16);
}
