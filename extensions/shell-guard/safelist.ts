/**
 * The read-only safe list, an allow-list of forms: a command on it only reads, so it auto-approves with
 * no rule. A command is on it only when every flag and operand is known to read (forms.ts, git in
 * safelist-git.ts, sed / awk scripts in scripts.ts, find's predicates here). What the caller also checks:
 * output redirection, environment prefixes (safeEnvName) and the wrappers around it (safeWrapper).
 */
import { FORMS, parseForm } from "./forms.js";
import { gitSafe } from "./safelist-git.js";
import { awkProgramRisk, sedScriptRisk } from "./scripts.js";

export interface SafeCheck {
  safe: boolean;
  why: string;
}

/**
 * Environment names a read-only command may be given: locale, colour, time zone, terminal size. Any
 * other (GIT_*, LESSOPEN, PAGER, LD_PRELOAD, PATH, BASH_ENV, ...) can make a reader run a program.
 */
const SAFE_ENV = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|CLICOLOR|CLICOLOR_FORCE|FORCE_COLOR|COLUMNS|LINES|TERM|COLORTERM)$/;
export const safeEnvName = (name: string): boolean => SAFE_ENV.test(name);

/** Wrappers that change neither the user, the environment nor what is read: `nice ls` stays safe. */
const SAFE_WRAPPERS = new Set(["nice", "ionice", "timeout", "command", "builtin", "exec", "time", "stdbuf"]);
export const safeWrapper = (name: string): boolean => SAFE_WRAPPERS.has(name);

const FIND_VALUED = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype", "-maxdepth", "-mindepth",
  "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer", "-cnewer", "-size", "-perm", "-user", "-group", "-uid",
  "-gid", "-links", "-inum", "-samefile", "-lname", "-ilname", "-regextype", "-used", "-printf", "-fstype", "-context",
]);
const FIND_BOOL = new Set([
  "-print", "-print0", "-ls", "-prune", "-quit", "-not", "-a", "-and", "-o", "-or", "-follow", "-depth", "-daystart", "-mount", "-xdev",
  "-noleaf", "-readable", "-writable", "-executable", "-true", "-false", "-empty", "-nouser", "-nogroup", "-ignore_readdir_race",
  "-noignore_readdir_race", "(", ")", "!", ",", "-L", "-H", "-P",
]);

function findSafe(args: string[]): SafeCheck {
  let i = 0;
  while (i < args.length && ["-L", "-H", "-P", "-O0", "-O1", "-O2", "-O3"].includes(args[i]!)) i++;
  // roots, then the expression
  while (i < args.length && !args[i]!.startsWith("-") && !["(", ")", "!", ","].includes(args[i]!)) i++;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (FIND_BOOL.has(a)) continue;
    if (FIND_VALUED.has(a) || /^-newer[amcBt]{2}$/.test(a)) {
      if (++i >= args.length) return { safe: false, why: `find ${a} without its value` };
      continue;
    }
    return { safe: false, why: `find ${a} is off the safe list (only tests and printing to stdout are)` };
  }
  return { safe: true, why: "find reads" };
}

function sedSafe(args: string[]): SafeCheck {
  const scripts: string[] = [];
  let given = false;
  const ops: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      ops.push(...args.slice(i + 1));
      break;
    }
    if (a === "-e" || a === "--expression") {
      given = true;
      scripts.push(args[++i] ?? "");
    } else if (a.startsWith("--expression=")) {
      given = true;
      scripts.push(a.slice(13));
    } else if (/^-[nErsuz]*e$/.test(a)) {
      given = true;
      scripts.push(args[++i] ?? "");
    } else if (/^-[nErsuz]*e./.test(a)) {
      given = true;
      scripts.push(a.slice(a.indexOf("e") + 1));
    } else if (a === "-l" || a === "--line-length") i++;
    else if (/^-[nErsuz]+$/.test(a) || ["--quiet", "--silent", "--regexp-extended", "--separate", "--unbuffered", "--null-data", "--posix", "--debug", "--sandbox", "--follow-symlinks"].includes(a) || a.startsWith("--line-length=")) continue;
    else if (a === "-i" || a.startsWith("--in-place") || /^-[a-zA-Z]*i/.test(a)) return { safe: false, why: "sed -i edits files" };
    else if (a.startsWith("-") && a !== "-") return { safe: false, why: `sed ${a} is not known to be read-only (a script file the guard cannot read, or an unknown option)` };
    else ops.push(a);
  }
  if (!given) {
    if (!ops.length) return { safe: false, why: "sed without a script" };
    scripts.push(ops.shift()!);
  }
  for (const s of scripts) {
    const risk = sedScriptRisk(s);
    if (risk) return { safe: false, why: risk };
  }
  return { safe: true, why: "sed prints" };
}

function awkSafe(name: string, args: string[]): SafeCheck {
  const ops: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      ops.push(...args.slice(i + 1));
      break;
    }
    if (a === "-F" || a === "-v" || a === "--field-separator" || a === "--assign") i++;
    else if (/^-[Fv]./.test(a) || a.startsWith("--field-separator=") || a.startsWith("--assign=")) continue;
    else if (a.startsWith("-") && a !== "-") return { safe: false, why: `${name} ${a} is not known to be read-only (a program file, an extension or an output option)` };
    else ops.push(a);
  }
  const program = ops[0];
  if (program === undefined) return { safe: false, why: `${name} without a program` };
  const risk = awkProgramRisk(program);
  return risk ? { safe: false, why: risk } : { safe: true, why: `${name} prints` };
}

/** Is this peeled argv read-only? `extra` holds shell.safe_list_extra prefixes ("make check"). */
export function safeListCheck(argv: string[], extra: string[]): SafeCheck {
  if (!argv.length) return { safe: true, why: "no command" };
  const [name, ...args] = argv as [string, ...string[]];
  for (const e of extra) {
    const words = e.trim().split(/\s+/);
    if (words.length && words.every((w, i) => argv[i] === w)) return { safe: true, why: `shell.safe_list_extra: ${e}` };
  }
  if (name === "git") return gitSafe(args);
  if (name === "find") return findSafe(args);
  if (name === "sed") return sedSafe(args);
  if (name === "awk" || name === "gawk" || name === "mawk" || name === "nawk") return awkSafe(name, args);
  if (name === "less" || name === "more" || name === "most" || name === "man" || name === "pager") return { safe: false, why: `${name} is a pager (it can run commands and LESSOPEN filters)` };
  if (name === "env" || name === "xargs") return args.length || name === "xargs" ? { safe: false, why: `${name} runs a command` } : { safe: true, why: "env prints the environment" };
  const form = FORMS[name];
  if (!form) return { safe: false, why: `${name} is not on the read-only safe list` };
  const p = parseForm(form, args);
  if (p.bad) return { safe: false, why: `${name} ${p.bad} is not known to be read-only` };
  const bad = form.ops?.(p.ops);
  if (bad) return { safe: false, why: bad };
  return { safe: true, why: `${name} only reads` };
}
