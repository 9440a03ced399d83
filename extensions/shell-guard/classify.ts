/**
 * classify(): parse with tree-sitter-bash, walk the tree into segments, peel wrappers, resolve words,
 * and give each segment floor / guard / safe / plain. Nested scripts (bash -c, eval, echo ... | sh,
 * here-strings and here-docs fed to a shell) are parsed again, to a bounded depth.
 */
import type { Node, Parser } from "web-tree-sitter";
import { bashParser } from "./parser.js";
import { resolveArg, resolveNode, type Resolved, type WordEnv } from "./words.js";
import { peel, baseName } from "./peel.js";
import { checkFloor, type Finding } from "./floor.js";
import { safeListCheck } from "./safelist.js";
import { MAX_COMMAND_CHARS, type Classification, type ClassifyOptions, type Segment, type Verdict } from "./api.js";
import { matchBash } from "./pattern.js";

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "csh", "tcsh", "yash"]);
const INTERPRETERS = new Set([...SHELLS, "python", "python2", "python3", "perl", "ruby", "node", "php", "lua", "Rscript"]);
const DOWNLOADER_RE = /(^|[^\w-])(curl|wget|fetch|aria2c|nc|ncat|socat|httpie|http|https|lwp-request|GET|ftp|tftp|scp|rsync)(?![\w-])/;
const MAX_DEPTH = 4;

interface Ctx {
  cwd: string;
  home: string;
  project: string;
  opts: ClassifyOptions;
}

interface StageInfo {
  name: string;
  /** a shell/interpreter that reads its script from stdin */
  readsStdin: boolean;
  producer: "downloader" | "decoder" | "literal" | "other";
  literal?: string;
}

class Walker {
  readonly segments: Segment[] = [];
  readonly env: WordEnv;
  private readonly stage = new Map<number, StageInfo>();
  constructor(
    private readonly parser: Parser,
    private readonly ctx: Ctx,
    private readonly depth: number,
  ) {
    this.env = { vars: new Map([["PWD", ctx.cwd]]), home: ctx.home };
  }

  add(text: string, command: string, kind: Segment["kind"], reason: string, verdict?: Verdict): number {
    const v: Verdict = verdict ?? (kind === "floor" ? "deny" : kind === "safe" ? "allow" : "ask");
    this.segments.push({ text: text.trim(), command, verdict: v, kind, reason });
    return this.segments.length - 1;
  }

  /** Classify nested script text (bash -c, eval, piped literal) and merge its segments. */
  nested(script: string, origin: string): void {
    if (this.depth >= MAX_DEPTH) {
      this.add(origin, script, "guard", "nested shell scripts too deep to check");
      return;
    }
    for (const s of classifyWith(this.parser, script, this.ctx, this.depth + 1)) this.segments.push(s);
  }

  visit(node: Node, redirects: Resolved[]): void {
    switch (node.type) {
      case "ERROR":
        this.add(node.text, node.text, "guard", "the command cannot be parsed");
        return;
      case "command":
        this.command(node, redirects);
        return;
      case "redirected_statement": {
        const out = [...redirects];
        let heredoc: string | undefined;
        for (const r of node.childrenForFieldName("redirect")) {
          if (!r) continue;
          if (r.type === "file_redirect") out.push(...this.outputTargets(r));
          if (r.type === "heredoc_redirect") heredoc = r.namedChildren.find((c) => c?.type === "heredoc_body")?.text;
          this.visitSubstitutions(r);
        }
        const body = node.childForFieldName("body");
        if (!body) return;
        const start = this.segments.length;
        this.visit(body, out);
        const info = this.stage.get(start);
        if (heredoc !== undefined && info?.readsStdin) this.nested(heredoc, node.text);
        return;
      }
      case "pipeline":
        this.pipeline(node, redirects);
        return;
      case "function_definition":
        this.functionDef(node);
        return;
      case "variable_assignment": {
        this.assign(node);
        this.visitSubstitutions(node);
        return;
      }
      case "unset_command":
        for (const c of node.namedChildren) if (c) this.env.vars.delete(c.text);
        return;
      case "comment":
        return;
      default:
        for (const c of node.namedChildren) if (c) this.visit(c, redirects);
    }
  }

  private assign(node: Node): void {
    const name = node.childForFieldName("name")?.text;
    const value = node.childForFieldName("value");
    if (!name) return;
    const r = value ? resolveNode(value, this.env) : { value: "", known: true };
    if (r.known) this.env.vars.set(name, r.value);
    else this.env.vars.delete(name);
  }

  private outputTargets(r: Node): Resolved[] {
    const ops = r.children.filter((c) => c && !c.isNamed).map((c) => c!.type);
    const isOut = ops.some((o) => [">", ">>", "&>", "&>>", ">|", ">&", "&>|"].includes(o));
    if (!isOut) return [];
    const out: Resolved[] = [];
    for (const d of r.childrenForFieldName("destination")) {
      if (!d) continue;
      const v = resolveNode(d, this.env);
      // `>&2`, `2>&1`: descriptor duplication, not a file
      if (v.known && /^(\d+|-)$/.test(v.value) && ops.includes(">&")) continue;
      out.push(v);
    }
    return out;
  }

  /** Visit $(...), `...` and <(...) anywhere below a node: each is its own segment. */
  private visitSubstitutions(node: Node): void {
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === "command_substitution" || c.type === "process_substitution") {
        for (const cc of c.namedChildren) if (cc) this.visit(cc, []);
      } else this.visitSubstitutions(c);
    }
  }

  private pipeline(node: Node, redirects: Resolved[]): void {
    const producers: StageInfo[] = [];
    for (const stageNode of node.namedChildren) {
      if (!stageNode) continue;
      const start = this.segments.length;
      this.visit(stageNode, redirects);
      const info = this.stage.get(start);
      if (info?.readsStdin && producers.length) {
        const seg = this.segments[start]!;
        const bad = producers.find((p) => p.producer === "downloader" || p.producer === "decoder");
        if (bad) {
          Object.assign(seg, { kind: "floor", verdict: "deny", reason: `${bad.producer === "downloader" ? `${bad.name} output` : `decoded ${bad.name} output`} piped into ${info.name} (dangerous floor: curl | sh)` });
        } else {
          const lit = producers.length === 1 ? producers[0]!.literal : undefined;
          if (lit !== undefined) this.nested(lit, stageNode.text);
          else if (seg.kind !== "floor") Object.assign(seg, { kind: "guard", verdict: "ask", reason: `${info.name} runs a script read from a pipe the guard cannot see` });
        }
      }
      for (let i = start; i < this.segments.length; i++) {
        const p = this.stage.get(i);
        if (p) producers.push(p);
      }
    }
  }

  private functionDef(node: Node): void {
    const name = node.childForFieldName("name")?.text ?? node.namedChildren[0]?.text ?? "";
    const body = node.childForFieldName("body");
    const calls: Node[] = body ? body.descendantsOfType("command").filter((c): c is Node => !!c) : [];
    const selfCalls = calls.filter((c) => c.childForFieldName("name")?.text === name);
    const bodyText = body?.text ?? "";
    if (name && selfCalls.length >= 1 && (selfCalls.length >= 2 || bodyText.includes("&"))) {
      this.add(node.text, node.text, "floor", "a self-replicating function (fork bomb, dangerous floor)");
    }
    if (body) this.visit(body, []);
  }

  private command(node: Node, inherited: Resolved[]): void {
    const nameNode = node.childForFieldName("name");
    const argNodes = node.childrenForFieldName("argument").filter((c): c is Node => !!c);
    const redirects = [...inherited];
    let herestring: Resolved | undefined;
    for (const r of node.childrenForFieldName("redirect")) {
      if (r?.type === "file_redirect") redirects.push(...this.outputTargets(r));
      if (r?.type === "herestring_redirect") {
        const n = r.namedChildren.at(-1);
        if (n) herestring = resolveNode(n, this.env);
      }
    }
    const argv: Resolved[] = [];
    if (nameNode?.firstNamedChild) argv.push(...resolveArg(nameNode.firstNamedChild, this.env));
    for (const a of argNodes) argv.push(...resolveArg(a, this.env));
    const peeled = peel(argv);
    const words = peeled.argv;
    const command = words.map((w) => w.value).join(" ");
    const index = this.segments.length;
    const name = words[0]?.value ?? "";
    const info: StageInfo = { name, readsStdin: false, producer: "other" };
    this.stage.set(index, info);

    const decide = (): { kind: Segment["kind"]; reason: string; verdict?: Verdict } => {
      if (!words.length) return { kind: "safe", reason: "only assignments" };
      const floor: Finding | undefined = checkFloor(words, redirects, { cwd: this.ctx.cwd, home: this.ctx.home, project: this.ctx.project, fromStdin: peeled.fromStdin });
      if (floor?.kind === "floor") return floor;
      if (!words[0]!.known) return { kind: "guard", reason: `the command name '${words[0]!.value}' is computed at run time` };
      const args = words.slice(1);
      const argNodesPeeled = argNodes.slice(Math.max(0, argNodes.length - args.length));
      // downloads fed straight to an interpreter
      if (INTERPRETERS.has(name) || name === "source" || name === "." || name === "eval") {
        for (const n of argNodesPeeled) {
          if ((n.type === "process_substitution" || n.descendantsOfType(["command_substitution", "process_substitution"]).length) && DOWNLOADER_RE.test(n.text)) {
            return { kind: "floor", reason: `${name} runs a downloaded script (dangerous floor: curl | sh)` };
          }
        }
      }
      if (name === "eval") {
        if (args.every((a) => a.known)) {
          this.nested(args.map((a) => a.value).join(" "), node.text);
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
          this.nested(script.value, node.text);
          return floor ?? { kind: "plain", reason: `${name} -c (its script is checked as its own segments)` };
        }
        const fileArg = args.find((a) => !a.value.startsWith("-") || a.value === "-");
        if (!fileArg || fileArg.value === "-" || args.some((a) => a.value === "-s")) {
          info.readsStdin = true;
          if (herestring) {
            if (herestring.known) this.nested(herestring.value, node.text);
            else return { kind: "guard", reason: `${name} runs a here-string the guard cannot resolve` };
          }
        }
      } else if (INTERPRETERS.has(name) && !args.some((a) => /^-[a-zA-Z]*[ce]$/.test(a.value)) && (!args.length || args.every((a) => a.value.startsWith("-")))) {
        info.readsStdin = true;
      }
      if (floor) return floor;
      const writes = redirects.filter((r) => !(r.known && /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(r.value)));
      const safe = safeListCheck(words.map((w) => w.value), this.ctx.opts.safeListExtra ?? []);
      if (safe.safe && writes.length) return { kind: "plain", reason: `${name} writes output to a file (redirection drops it off the safe list)` };
      if (safe.safe) return { kind: "safe", reason: safe.why };
      return { kind: "plain", reason: safe.why };
    };

    // producers for `x | sh`
    if (name === "curl" || name === "wget" || DOWNLOADER_RE.test(` ${name} `)) info.producer = "downloader";
    else if (
      (name === "base64" && words.some((w) => ["-d", "-D", "--decode"].includes(w.value))) ||
      (name === "openssl" && words.some((w) => w.value === "-d" || w.value === "-base64" || w.value === "base64")) ||
      (name === "xxd" && words.some((w) => w.value.startsWith("-r"))) ||
      ["uudecode", "gunzip", "zcat", "bzcat", "xzcat", "rev", "base32", "basenc"].includes(name) ||
      (name === "gzip" && words.some((w) => w.value === "-d")) ||
      (name === "tr" && words.length > 2)
    ) info.producer = "decoder";
    else if ((name === "echo" || name === "printf" || name === "cat") && words.slice(1).every((w) => w.known) && !herestring) {
      if (name !== "cat") {
        info.producer = "literal";
        info.literal = words.slice(1).filter((w) => !(name === "echo" && /^-[neE]+$/.test(w.value))).map((w) => w.value).join(" ");
      }
    } else if ((name === "echo" || name === "printf") && DOWNLOADER_RE.test(node.text)) info.producer = "downloader";

    // reserve the segment's slot before nested segments are appended
    this.add(node.text, command, "plain", "");
    const d = decide();
    const seg = this.segments[index]!;
    seg.kind = d.kind;
    seg.reason = d.reason;
    seg.verdict = d.verdict ?? (d.kind === "floor" ? "deny" : d.kind === "safe" ? "allow" : "ask");
    if (seg.kind === "plain" || seg.kind === "safe") {
      const deny = (this.ctx.opts.deny ?? []).find((p) => matchBash(p, command));
      const allow = (this.ctx.opts.allow ?? []).find((p) => matchBash(p, command));
      if (deny) Object.assign(seg, { verdict: "deny", reason: `shell.deny ${deny}` });
      else if (allow && seg.kind === "plain") Object.assign(seg, { verdict: "allow", reason: `shell.allow ${allow}` });
    }
    if (peeled.wrappers.length && !seg.reason.includes("peeled")) seg.reason += ` (peeled: ${peeled.wrappers.join(", ")})`;
    void baseName;
    this.visitSubstitutions(node);
  }
}

function classifyWith(parser: Parser, text: string, ctx: Ctx, depth: number): Segment[] {
  if (text.length > MAX_COMMAND_CHARS) {
    return [{ text: `${text.slice(0, 80)}…`, command: text.slice(0, 80), verdict: "ask", kind: "guard", reason: `the command is longer than ${MAX_COMMAND_CHARS} characters` }];
  }
  const tree = parser.parse(text);
  if (!tree) return [{ text, command: text, verdict: "ask", kind: "guard", reason: "the command cannot be parsed" }];
  try {
    const root = tree.rootNode;
    if (root.hasError) {
      return [{ text, command: text, verdict: "ask", kind: "guard", reason: "the command cannot be parsed (syntax error)" }];
    }
    const w = new Walker(parser, ctx, depth);
    w.visit(root, []);
    return w.segments;
  } finally {
    tree.delete();
  }
}

export function summarize(segments: Segment[]): Classification {
  const deny = segments.find((s) => s.verdict === "deny");
  const ask = segments.find((s) => s.verdict === "ask");
  if (deny) return { verdict: "deny", segments, reason: deny.reason };
  if (ask) return { verdict: "ask", segments, reason: ask.reason };
  return { verdict: "allow", segments, reason: segments.length ? "every segment is allowed" : "empty command" };
}

export async function classifyCommand(command: string, opts: ClassifyOptions = {}): Promise<Classification> {
  const home = opts.home ?? process.env.HOME ?? "/root";
  const cwd = opts.cwd ?? opts.project ?? process.cwd();
  const ctx: Ctx = { cwd, home, project: opts.project ?? cwd, opts };
  if (command.length > MAX_COMMAND_CHARS) return summarize(classifyWith(undefined as unknown as Parser, command, ctx, 0));
  const parser = await bashParser();
  return summarize(classifyWith(parser, command, ctx, 0));
}
