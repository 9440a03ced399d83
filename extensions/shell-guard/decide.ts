/**
 * One simple command's verdict, after its wrappers are peeled: the floor, a computed name, downloads
 * run by an interpreter, eval / sh -c text (checked as nested segments), inline interpreter code,
 * then the guard's asks (lost history, the catastrophic deletes, secret reads, persistent writes),
 * then the read-only safe list.
 */
import type { Node } from "web-tree-sitter";
import type { Resolved } from "./words.js";
import { checkFloor, checkComputedName, type Finding } from "./floor.js";
import { safeEnvName, safeListCheck, safeWrapper } from "./safelist.js";
import type { GuardCategory, Segment, Verdict } from "./api.js";
import { secretRead } from "./reads.js";
import { persistentWrite } from "./persist.js";
import { historyLoss } from "./history.js";
import { inlineCode, interpreterLang, secretOptions, type Lang } from "./inline.js";
import { DOWNLOADER_RE, SHELLS, isInterpreter, type StageInfo } from "./stages.js";

export type Decision = { kind: Segment["kind"]; reason: string; verdict?: Verdict; category?: GuardCategory };

export interface CommandParts {
  node: Node;
  argNodes: Node[];
  /** argv after peeling wrappers */
  words: Resolved[];
  /** output redirection targets (inherited ones too) */
  redirects: Resolved[];
  herestring: Resolved | undefined;
  fromStdin: boolean;
  info: StageInfo;
  /** environment names given to the command (VAR=val prefixes, env VAR=val) */
  assigned: string[];
  /** the wrappers peeled off (sudo, env, xargs, ...) */
  wrappers: string[];
  /** VAR=val prefixes with their values (a nested `sh -c` sees them) */
  prefix: Array<[string, string]>;
}

/** What the walker lends a decision: where paths resolve, and how nested text is checked. */
export interface DecideHost {
  paths(): { cwd: string; home: string; project: string };
  /** classify shell text (sh -c, eval, a shell-out's command) as segments of its own */
  nested(script: string, origin: string): void;
  /** scan inline interpreter code; the guard's ask, if any */
  inline(code: string, lang: Lang, origin: string): Decision | undefined;
  safeListExtra: string[];
  /** the first environment name an earlier command of the script exported (export X=…, set -a) */
  envTaint(): string | undefined;
  /** false after a `cd` to a directory that cannot be resolved */
  cwdResolves(): boolean;
  /** nested shell text run with VAR=val prefixes in its environment */
  nestedWith(script: string, assigned: Array<[string, string]>): void;
}

/** Commands whose words are only printed or compared: a word computed at run time cannot make them run anything. */
const PRINTERS = new Set(["echo", "printf", "true", "false", "test", "["]);

/** Inline code that is nothing but one expansion (`python -c "$CODE"`): nothing to scan. */
const ONLY_EXPANSION = /^(\$\{?\w+\}?|\$\(.*\)|`.*`)$/s;

export function decideCommand(host: DecideHost, c: CommandParts): Decision {
  const { node, words, redirects, herestring, info } = c;
  const name = info.name;
  const fctx = { ...host.paths(), fromStdin: c.fromStdin, cwdKnown: host.cwdResolves() };
  if (!words.length) return checkFloor([], redirects, fctx) ?? persistentWrite([], redirects, host.paths()) ?? { kind: "safe", reason: "only assignments" };
  const floor: Finding | undefined = checkFloor(words, redirects, fctx);
  if (floor?.kind === "floor") return floor;
  const args = words.slice(1);
  if (!words[0]!.known) {
    // `$SHELL -c '…'`: whatever the name turns out to be, its script is checked as shell text
    const ci = args.findIndex((a) => a.known && /^-[a-zA-Z]*c$/.test(a.value));
    if (ci >= 0 && args[ci + 1]?.known) host.nested(args[ci + 1]!.value, node.text);
    const computed = checkComputedName(words, redirects, fctx);
    if (computed?.kind === "floor") return computed;
    return { kind: "guard", category: "opaque", reason: `the command name '${words[0]!.value}' is computed at run time` };
  }
  const argNodesPeeled = c.argNodes.slice(Math.max(0, c.argNodes.length - args.length));
  // downloads fed straight to an interpreter
  if (isInterpreter(name) || name === "source" || name === "." || name === "eval") {
    for (const n of argNodesPeeled) {
      if ((n.type === "process_substitution" || n.descendantsOfType(["command_substitution", "process_substitution"]).length) && DOWNLOADER_RE.test(n.text)) {
        return { kind: "floor", reason: `${name} runs a downloaded script (dangerous floor: curl | sh)` };
      }
    }
  }
  if (name === "eval") {
    if (args.every((a) => a.known)) {
      host.nested(args.map((a) => a.value).join(" "), node.text);
      return floor ?? { kind: "plain", reason: "eval (its text is checked as its own segments)" };
    }
    return { kind: "guard", reason: "eval of text that cannot be resolved before it runs" };
  }
  if (SHELLS.has(name)) {
    const ci = args.findIndex((a) => a.known && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a.value));
    if (ci >= 0) {
      const script = args[ci + 1];
      if (!script) return { kind: "guard", reason: `${name} -c without a script` };
      if (!script.known) return { kind: "guard", reason: `${name} -c with a script that cannot be resolved before it runs` };
      host.nestedWith(script.value, c.prefix);
      return floor ?? { kind: "plain", reason: `${name} -c (its script is checked as its own segments)` };
    }
    const fileArg = args.find((a) => !a.value.startsWith("-") || a.value === "-");
    if (!fileArg || fileArg.value === "-" || args.some((a) => a.value === "-s")) {
      info.readsStdin = true;
      if (herestring) {
        if (herestring.known) host.nested(herestring.value, node.text);
        else return { kind: "guard", reason: `${name} runs a here-string the guard cannot resolve` };
      }
    }
  } else if (isInterpreter(name)) {
    const lang = interpreterLang(name);
    const code = inlineCode(name, args);
    if (code && lang) {
      if (code.every((w) => !w.known && ONLY_EXPANSION.test(w.value))) {
        return { kind: "guard", reason: `${name} runs inline code that cannot be resolved before it runs` };
      }
      const ask = host.inline(code.map((w) => w.value).join("\n"), lang, node.text);
      if (ask) return floor ?? ask;
    } else if (!args.some((a) => /^-[a-zA-Z]*[ce]$/.test(a.value)) && (!args.length || args.every((a) => a.value.startsWith("-")))) {
      info.readsStdin = true;
      if (herestring && lang) {
        const ask = herestring.known ? host.inline(herestring.value, lang, node.text) : undefined;
        if (ask) return floor ?? ask;
      }
    }
    const secret = secretOptions(args.map((a) => a.value), host.paths());
    if (secret) return floor ?? { kind: "guard", category: "secret-read", reason: `${name} loads a secret file: ${secret}` };
  }
  // awk's system("…") and "…" | getline run their string as shell text
  if (/^[gmn]?awk$/.test(name)) {
    const code = args.filter((a) => a.known).map((a) => a.value).join("\n");
    for (const m of code.matchAll(/system\s*\(\s*"((?:\\.|[^"\\])*)"|"((?:\\.|[^"\\])*)"\s*\||\|\s*"((?:\\.|[^"\\])*)"/g)) {
      host.nested((m[1] ?? m[2] ?? m[3] ?? "").replace(/\\(.)/g, "$1"), node.text);
    }
  }
  // a lost-history finding says more than find's "deletes under the project root"
  const ask = historyLoss(words, host.paths()) ?? floor ?? secretRead(words, host.paths()) ?? persistentWrite(words, redirects, host.paths());
  if (ask) return ask;
  const writes = redirects.filter((r) => !(r.known && /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(r.value)));
  const safe = safeListCheck(words.map((w) => w.value), host.safeListExtra);
  if (safe.safe && writes.length) return { kind: "plain", reason: `${name} writes output to a file (redirection drops it off the safe list)` };
  if (safe.safe) {
    // the environment and the wrappers can make a reader run a program (GIT_EXTERNAL_DIFF, LESSOPEN, sudo)
    const env = c.assigned.find((n) => !safeEnvName(n)) ?? host.envTaint();
    if (env) return { kind: "plain", reason: `${name} with ${env} in its environment is off the safe list (only locale, colour and TZ are)` };
    const wrapper = c.wrappers.find((w) => !safeWrapper(w));
    if (wrapper) return { kind: "plain", reason: `${name} under ${wrapper} is off the safe list` };
    if (!PRINTERS.has(name) && words.some((w) => !w.known)) return { kind: "plain", reason: `${name} with a word computed at run time is off the safe list` };
    return { kind: "safe", reason: safe.why };
  }
  return { kind: "plain", reason: safe.why };
}
