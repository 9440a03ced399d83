/**
 * Inline interpreter code (python -c, node -e/-p, perl -e/-E, ruby -e, php -r, deno eval, bun -e, and
 * a script fed on stdin by a here-doc, here-string or `echo … |`). The guard cannot judge a program,
 * so it looks for the shapes it asks about in the shell: a recursive delete (shutil.rmtree,
 * fs.rmSync(…, {recursive: true}), FileUtils.rm_rf, rimraf, remove_tree), a shell-out (os.system,
 * subprocess, child_process, backticks, system(), Process.spawn, shell_exec) and a secret read
 * (a literal naming .env or a credential file, dotenv). The command string of a shell-out is
 * extracted where it is a literal, so the caller can classify it like any other shell text.
 */
import type { Resolved } from "./words.js";
import { secretPath, type PathCtx } from "./paths.js";
import { extractCalls } from "./inline-args.js";

export type Lang = "python" | "js" | "perl" | "ruby" | "php";

export function interpreterLang(name: string): Lang | undefined {
  if (/^(python[0-9.]*|pypy[0-9.]*)$/.test(name)) return "python";
  if (name === "node" || name === "nodejs" || name === "bun" || name === "deno") return "js";
  if (name === "perl" || name === "ruby" || name === "php") return name;
  return undefined;
}

/** The inline code words of an interpreter's argv (after the name), or undefined when it runs a file. */
export function inlineCode(name: string, args: Resolved[]): Resolved[] | undefined {
  const lang = interpreterLang(name);
  if (!lang) return undefined;
  const out: Resolved[] = [];
  const v = (i: number): string => args[i]?.value ?? "";
  if (name === "deno") {
    const at = args.findIndex((a) => a.value === "eval");
    if (at < 0) return undefined;
    const code = args.slice(at + 1).find((a) => !a.value.startsWith("-"));
    return code ? [code] : undefined;
  }
  for (let i = 0; i < args.length; i++) {
    const a = v(i);
    if (!a.startsWith("-") || a === "-" || a === "--") break; // a script file, stdin, or the end of options
    if (lang === "python") {
      // short options cluster (-Bc CODE); -W, -X take a value; -m runs a module
      const m = /^-([a-zA-Z]*?)([cWXm])(.*)$/.exec(a);
      if (!m || a.startsWith("--")) continue;
      if (m[2] === "m") return undefined;
      if (m[2] !== "c") {
        if (!m[3]) i++;
        continue;
      }
      out.push(m[3] ? { value: m[3], known: args[i]!.known } : args[++i] ?? { value: "", known: true });
      return out;
    }
    if (lang === "js") {
      const eq = /^--(eval|print)=(.*)$/s.exec(a);
      if (eq) return [{ value: eq[2]!, known: args[i]!.known }];
      if (["-e", "--eval", "-p", "--print", "-pe", "-ep"].includes(a)) return args[i + 1] ? [args[i + 1]!] : undefined;
      continue;
    }
    // perl / ruby -e CODE (repeatable, clustered as -ne, -lane), php -r / -R / -B / -E CODE
    const letters = lang === "php" ? "rRBE" : lang === "perl" ? "eE" : "e";
    if (a.length >= 2 && letters.includes(a.at(-1)!) && !a.startsWith("--") && (lang !== "php" || a.length === 2)) {
      if (args[i + 1]) out.push(args[++i]!);
    }
  }
  return out.length ? out : undefined;
}

interface Shape {
  re: RegExp;
  what: string;
}

const DELETES: Record<Lang, Shape[]> = {
  python: [
    { re: /\bshutil\s*\.\s*rmtree\b|\brmtree\s*\(/, what: "shutil.rmtree (recursive delete)" },
    { re: /\bremovedirs\s*\(/, what: "os.removedirs (recursive delete)" },
  ],
  js: [
    { re: /\b(rmSync|rmdirSync|rm|rmdir|remove|removeSync)\s*\((?:[^()]|\([^()]*\))*\brecursive\s*:\s*(true|!0|1)\b/, what: "a recursive rm / rmdir" },
    { re: /\brimraf\b/, what: "rimraf (recursive delete)" },
    { re: /\b(removeSync|emptyDirSync|emptyDir)\s*\(/, what: "fs-extra remove (recursive delete)" },
  ],
  perl: [{ re: /\b(rmtree|remove_tree)\b/, what: "File::Path remove_tree (recursive delete)" }],
  ruby: [
    { re: /\bFileUtils\s*\.\s*(rm_rf|rm_r|remove_dir|remove_entry(_secure)?|rmtree)\b/, what: "FileUtils.rm_rf (recursive delete)" },
    { re: /\.rmtree\b/, what: "Pathname#rmtree (recursive delete)" },
  ],
  php: [],
};

const BACKTICKS: Shape = { re: /`[^`]*`/, what: "backticks (a shell command)" };

const SHELLS: Record<Lang, Shape[]> = {
  python: [
    { re: /\bos\s*\.\s*(system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)\s*\(/, what: "os.system / os.popen (a shell command)" },
    { re: /\bsubprocess\b/, what: "subprocess (a shell command)" },
    { re: /\bpty\s*\.\s*spawn\b|\bcommands\s*\.\s*getoutput\b/, what: "pty.spawn (a shell command)" },
    { re: /\bfrom\s+os\s+import\b[^;\n]{0,200}\b(system|popen)\b/, what: "os.system (a shell command)" },
    { re: /\b(__import__|import_module)\s*\(\s*["'](os|subprocess|pty|shutil)["']/, what: "a dynamic import of os / subprocess" },
  ],
  js: [
    { re: /\bchild_process\b/, what: "child_process (a shell command)" },
    { re: /\bDeno\s*\.\s*(Command|run)\b/, what: "Deno.Command (a shell command)" },
    { re: /\bBun\s*\.\s*(spawn|spawnSync)\b|\$`/, what: "Bun.spawn (a shell command)" },
    { re: /\bexeca\b|\bshelljs\b/, what: "execa / shelljs (a shell command)" },
  ],
  perl: [
    BACKTICKS,
    { re: /\bqx\s*[^\w\s]/, what: "qx (a shell command)" },
    { re: /\b(system|exec)\b/, what: "system / exec (a shell command)" },
    { re: /\bopen\b[^;]{0,200}?(["']\s*\||\|\s*["']|["']-\||["']\|-)/, what: "a piped open (a shell command)" },
  ],
  ruby: [
    BACKTICKS,
    { re: /%x\s*[^\w\s]/, what: "%x (a shell command)" },
    { re: /\b(system|exec|spawn)\b/, what: "system / exec / Process.spawn (a shell command)" },
    { re: /\bIO\s*\.\s*popen\b|\bOpen3\b|\bPTY\s*\.\s*spawn\b|\bopen\s*\(\s*["']\|/, what: "IO.popen / Open3 (a shell command)" },
  ],
  php: [
    BACKTICKS,
    { re: /\b(shell_exec|exec|system|passthru|proc_open|popen|pcntl_exec)\s*\(/, what: "shell_exec / system (a shell command)" },
  ],
};

const DOTENV: Record<Lang, RegExp | undefined> = {
  python: /\b(load_dotenv|dotenv_values|find_dotenv)\b/,
  js: /\bdotenv\b/,
  ruby: /\bDotenv\b/,
  perl: undefined,
  php: /\bDotenv\b/,
};

/** A literal that names a secret: the path itself, or a tail of it (os.path.join(home, '.aws/credentials')). */
function secretLiteral(lit: string, ctx: PathCtx): string | undefined {
  if (lit.length > 512 || !/[.\w]/.test(lit)) return undefined;
  const direct = secretPath(lit, ctx);
  if (direct) return direct;
  const parts = lit.split("/");
  for (let i = 0; i < parts.length; i++) {
    if (!parts[i]!.startsWith(".")) continue;
    const hit = secretPath(`${ctx.home}/${parts.slice(i).join("/")}`, ctx);
    if (hit) return hit;
  }
  return undefined;
}

const LITERAL = /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;

export interface CodeScan {
  /** what the guard asks about, or undefined for plain code */
  reason?: string;
  /** shell commands the code runs, extracted from literals, to classify as shell text */
  scripts: string[];
}

/** Scan inline code for the shapes the guard asks about. */
export function scanCode(code: string, lang: Lang, ctx: PathCtx): CodeScan {
  const name = lang === "js" ? "JavaScript" : lang;
  const scripts: string[] = [];
  let reason: string | undefined;
  for (const s of SHELLS[lang]) {
    if (lang === "js" && s === BACKTICKS) continue;
    if (s.re.test(code)) {
      reason ??= `inline ${name} code runs ${s.what}`;
      break;
    }
  }
  if (reason) scripts.push(...extractCalls(code, lang));
  for (const s of DELETES[lang]) if (!reason && s.re.test(code)) reason = `inline ${name} code calls ${s.what}`;
  if (!reason && DOTENV[lang]?.test(code)) reason = `inline ${name} code loads .env (reads a secret file)`;
  if (!reason) {
    for (const m of code.matchAll(LITERAL)) {
      const hit = secretLiteral(m[2]!, ctx);
      if (hit) {
        reason = `inline ${name} code reads a secret file: ${hit}`;
        break;
      }
    }
  }
  return { reason, scripts };
}

/** Interpreter options that load a secret: node --env-file=.env, -r dotenv/config, deno --env=.env. */
export function secretOptions(args: string[], ctx: PathCtx): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const m = /^--(env-file|env-file-if-exists|env)=(.+)$/.exec(a);
    const file = m ? m[2] : a === "--env-file" ? args[i + 1] : undefined;
    if (file) {
      const hit = secretPath(file, ctx);
      if (hit) return hit;
    }
    if (["-r", "--require", "--import"].includes(a) && /^dotenv(\/config)?$/.test(args[i + 1] ?? "")) return ".env (dotenv/config)";
  }
  return undefined;
}
