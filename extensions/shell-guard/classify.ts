/**
 * classify(): parse with tree-sitter-bash, walk the tree into segments, peel wrappers, resolve words,
 * and give each segment floor / guard / safe / plain (decide.ts judges one command). Nested scripts
 * (bash -c, eval, echo ... | sh, here-strings and here-docs fed to a shell, a shell-out's command in
 * inline code) are parsed again, to a bounded depth.
 */
import path from "node:path";
import type { Node, Parser } from "web-tree-sitter";
import { bashParser } from "./parser.js";
import { homeOf, resolveArg, resolveNode, type Resolved, type WordEnv } from "./words.js";
import { safeEnvName } from "./safelist.js";
import { afterCommand, exportedName, type ScriptState } from "./script-state.js";
import { peel } from "./peel.js";
import { MAX_COMMAND_CHARS, type Classification, type ClassifyOptions, type GuardCategory, type Segment, type Verdict } from "./api.js";
import { matchBash } from "./pattern.js";
import { secretInput } from "./reads.js";
import { interpreterLang, scanCode, type Lang } from "./inline.js";
import { SHELLS, pipedLiteral, producerOf, type StageInfo } from "./stages.js";
import { decideCommand, type Decision, type DecideHost } from "./decide.js";

const MAX_DEPTH = 4;
/** Words without which a piece of unparseable text cannot be a floor shape. */
const FLOOR_WORDS = /\b(rm|git|dd|chmod|chown|chgrp|mkfs[\w.]*|mke2fs|wipefs|eval|source|sh|bash|zsh|dash|ksh|python[\d.]*|node|perl|ruby|php|deno|bun|su|script|busybox)\b|[$>]/;

interface Ctx {
  cwd: string;
  home: string;
  project: string;
  opts: ClassifyOptions;
  /** what a nested script inherits from the script around it */
  vars?: Array<[string, string]>;
  taint?: string;
  cwdKnown?: boolean;
}

class Walker implements DecideHost {
  readonly segments: Segment[] = [];
  readonly env: WordEnv;
  /** the directory commands run in (`cd` moves it, a subshell or pipeline stage restores it after), aliases, exports */
  private readonly state: ScriptState;
  private readonly stage = new Map<number, StageInfo>();
  constructor(
    private readonly parser: Parser,
    private readonly ctx: Ctx,
    private readonly depth: number,
  ) {
    this.state = { cwd: ctx.cwd, cwdKnown: ctx.cwdKnown ?? true, aliases: new Map(), taint: ctx.taint };
    this.env = { vars: new Map([["PWD", ctx.cwd], ...(ctx.vars ?? [])]), home: ctx.home };
  }

  envTaint(): string | undefined {
    return this.state.taint;
  }

  cwdResolves(): boolean {
    return this.state.cwdKnown;
  }

  get safeListExtra(): string[] {
    return this.ctx.opts.safeListExtra ?? [];
  }

  private pathCtx?: { cwd: string; home: string; project: string };
  paths(): { cwd: string; home: string; project: string } {
    if (this.pathCtx?.cwd !== this.state.cwd) this.pathCtx = { cwd: this.state.cwd, home: this.ctx.home, project: this.ctx.project };
    return this.pathCtx;
  }

  add(text: string, command: string, kind: Segment["kind"], reason: string, verdict?: Verdict, category?: GuardCategory): number {
    const v: Verdict = verdict ?? (kind === "floor" ? "deny" : kind === "safe" ? "allow" : "ask");
    const seg: Segment = { text: text.trim(), command, verdict: v, kind, reason };
    if (kind === "guard") seg.category = category ?? "opaque";
    this.segments.push(seg);
    return this.segments.length - 1;
  }

  /** Classify nested script text (bash -c, eval, piped literal) and merge its segments. */
  nested(script: string, origin: string): void {
    if (this.depth >= MAX_DEPTH) {
      this.add(origin, script, "guard", "nested shell scripts too deep to check");
      return;
    }
    this.nestedWith(script, []);
  }

  /** A nested script sees the variables known here (resolving more is the careful side), plus `assigned`. */
  nestedWith(script: string, assigned: Array<[string, string]>): void {
    if (this.depth >= MAX_DEPTH) {
      this.add(script, script, "guard", "nested shell scripts too deep to check");
      return;
    }
    const vars = [...this.env.vars.entries(), ...assigned];
    const taint = this.state.taint ?? assigned.map(([n]) => n).find((n) => !safeEnvName(n));
    const ctx: Ctx = { ...this.ctx, cwd: this.state.cwd, vars, cwdKnown: this.state.cwdKnown, ...(taint ? { taint } : {}) };
    for (const s of classifyWith(this.parser, script, ctx, this.depth + 1)) this.segments.push(s);
  }

  /** Scan inline interpreter code; its shell-outs are classified as shell text. Returns the guard's ask, if any. */
  inline(code: string, lang: Lang, origin: string): Decision | undefined {
    const scan = scanCode(code, lang, this.paths());
    for (const script of scan.scripts) this.nested(script, origin);
    return scan.reason ? { kind: "guard", category: "inline-code", reason: scan.reason } : undefined;
  }

  /** A script a shell or interpreter reads on stdin (here-doc, `echo … |`): shell text, or inline code. */
  private stdinScript(index: number, script: string, origin: string, info: StageInfo): void {
    const lang = SHELLS.has(info.name) ? undefined : interpreterLang(info.name);
    if (!lang) {
      this.nested(script, origin);
      return;
    }
    const ask = this.inline(script, lang, origin);
    const seg = this.segments[index];
    if (ask && seg && seg.kind !== "floor") Object.assign(seg, { ...ask, verdict: "ask" });
  }

  /** `< .env`, `$(< .env)`: an input redirection of a secret file is a read like `cat .env`. */
  private secretInputs(r: Node, text: string): void {
    const ops = r.children.filter((c) => c && !c.isNamed).map((c) => c!.type);
    if (!ops.includes("<") && !ops.includes("<>")) return;
    for (const d of r.childrenForFieldName("destination")) {
      if (!d) continue;
      const t = resolveNode(d, this.env);
      const f = secretInput(t, this.paths());
      if (f) this.add(text, `< ${t.value}`, "guard", f.reason, undefined, f.category);
    }
  }

  visit(node: Node, redirects: Resolved[]): void {
    switch (node.type) {
      case "ERROR":
        this.add(node.text, node.text, "guard", "the command cannot be parsed");
        return;
      case "subshell": {
        const cwd = this.state.cwd;
        for (const c of node.namedChildren) if (c) this.visit(c, redirects);
        this.state.cwd = cwd;
        return;
      }
      case "command":
        this.command(node, redirects);
        return;
      case "redirected_statement":
        this.redirected(node, redirects);
        return;
      case "pipeline":
        this.pipeline(node, redirects);
        return;
      case "function_definition":
        this.functionDef(node);
        return;
      case "variable_assignment": {
        this.assign(node);
        this.visitSubstitutions(node);
        // an upper-case name may already be exported (PATH, PAGER, GIT_DIR): what runs after it sees it
        const name = node.childForFieldName("name")?.text ?? "";
        if (/^[A-Z_][A-Z0-9_]*$/.test(name) && !safeEnvName(name)) this.state.taint ??= name;
        return;
      }
      case "declaration_command": {
        for (const c of node.namedChildren) {
          if (c?.type !== "variable_assignment") continue;
          this.assign(c);
          this.visitSubstitutions(c);
        }
        this.state.taint ??= exportedName(node);
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

  private redirected(node: Node, redirects: Resolved[]): void {
    const out = [...redirects];
    let heredoc: string | undefined;
    const files: Node[] = [];
    // tree-sitter hangs what follows a here-doc's start inside it: `cat <<EOF | sh`, `cat <<EOF && rm …`, `cat <<EOF > f`
    const tails: Node[] = [];
    for (const r of node.childrenForFieldName("redirect")) {
      if (!r) continue;
      const parts = r.type === "heredoc_redirect" ? r.namedChildren.filter((c): c is Node => !!c) : [r];
      for (const p of parts) {
        if (p.type === "heredoc_body") heredoc = p.text;
        if (p.type === "file_redirect") {
          out.push(...this.outputTargets(p));
          files.push(p);
        }
        if (r.type === "heredoc_redirect" && !["heredoc_start", "heredoc_body", "heredoc_end", "file_redirect"].includes(p.type)) tails.push(p);
        else this.visitSubstitutions(p);
      }
    }
    const body = node.childForFieldName("body");
    // `> ~/.profile` alone truncates just like `: > ~/.profile`
    if (!body) {
      if (files.length) this.nested(`: ${node.text}`, node.text);
      return;
    }
    const start = this.segments.length;
    this.visit(body, out);
    const info = this.stage.get(start);
    if (heredoc !== undefined && info?.readsStdin) this.stdinScript(start, heredoc, node.text, info);
    for (const f of files) this.secretInputs(f, node.text);
    // `cat <<EOF | sh`: the here-doc is the literal the next stage reads
    const fed = info && heredoc !== undefined && info.producer === "passthrough" ? { ...info, producer: "literal" as const, literal: heredoc } : info;
    for (const t of tails) {
      if (t.type === "pipeline") this.pipeline(t, redirects, fed ? [fed] : []);
      else this.visit(t, redirects);
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

  private outputTargets(r: Node): Array<Resolved & { append?: boolean }> {
    const ops = r.children.filter((c) => c && !c.isNamed).map((c) => c!.type);
    const isOut = ops.some((o) => [">", ">>", "&>", "&>>", ">|", ">&", "&>|"].includes(o));
    if (!isOut) return [];
    const out: Resolved[] = [];
    for (const d of r.childrenForFieldName("destination")) {
      if (!d) continue;
      const v = resolveNode(d, this.env);
      // `>&2`, `2>&1`: descriptor duplication, not a file
      if (v.known && /^(\d+|-)$/.test(v.value) && ops.includes(">&")) continue;
      out.push(ops.includes(">>") || ops.includes("&>>") ? { ...v, append: true } : v);
    }
    return out;
  }

  /** Visit $(...), `...` and <(...) anywhere below a node: each is its own segment. */
  private visitSubstitutions(node: Node): void {
    const inExpansion = node.type === "expansion";
    for (const c of node.namedChildren) {
      if (!c) continue;
      const type = c.type;
      if (type === "command_substitution" || type === "process_substitution") {
        const cwd = this.state.cwd;
        for (const cc of c.namedChildren) {
          if (cc?.type === "file_redirect") this.secretInputs(cc, c.text); // $(< file) reads the file
          else if (cc) this.visit(cc, []);
        }
        this.state.cwd = cwd;
      } else if (inExpansion && type === "word" && c.text.includes("`")) {
        // tree-sitter leaves backticks in ${x:-`cmd`} as a plain word: the shell still runs them
        for (const m of c.text.matchAll(/`((?:\\.|[^`\\])*)`/g)) this.nested(m[1]!, c.text);
      } else this.visitSubstitutions(c);
    }
  }

  private pipeline(node: Node, redirects: Resolved[], upstream: StageInfo[] = []): void {
    const producers: StageInfo[] = [...upstream];
    const cwd = this.state.cwd;
    const stages: Node[] = [];
    const flatten = (n: Node): void => {
      for (const c of n.namedChildren) if (c) c.type === "pipeline" ? flatten(c) : stages.push(c);
    };
    flatten(node);
    for (const stageNode of stages) {
      const start = this.segments.length;
      this.visit(stageNode, redirects);
      this.state.cwd = cwd; // each stage runs in its own subshell
      const info = this.stage.get(start);
      if (info?.readsStdin && producers.length) {
        const seg = this.segments[start]!;
        const bad = producers.find((p) => p.producer === "downloader" || p.producer === "decoder");
        if (bad) {
          Object.assign(seg, { kind: "floor", verdict: "deny", reason: `${bad.producer === "downloader" ? `${bad.name} output` : `decoded ${bad.name} output`} piped into ${info.name} (dangerous floor: curl | sh)` });
        } else {
          const lit = pipedLiteral(producers);
          if (lit !== undefined) this.stdinScript(start, lit, stageNode.text, info);
          else if (seg.kind !== "floor") Object.assign(seg, { kind: "guard", verdict: "ask", category: "opaque", reason: `${info.name} runs a script read from a pipe the guard cannot see` });
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
    const inputs: Node[] = [];
    for (const r of node.childrenForFieldName("redirect")) {
      if (r?.type === "file_redirect") {
        redirects.push(...this.outputTargets(r));
        inputs.push(r);
      }
      if (r?.type === "herestring_redirect") {
        const n = r.namedChildren.at(-1);
        if (n) herestring = resolveNode(n, this.env);
      }
    }
    const argv: Resolved[] = [];
    if (nameNode?.firstNamedChild) argv.push(...resolveArg(nameNode.firstNamedChild, this.env));
    for (const a of argNodes) argv.push(...resolveArg(a, this.env));
    const prefix = node.namedChildren.filter((c): c is Node => c?.type === "variable_assignment");
    const assigned: Array<[string, string]> = [];
    for (const a of prefix) {
      const n = a.childForFieldName("name")?.text ?? "";
      const v = a.childForFieldName("value");
      const r = v ? resolveNode(v, this.env) : { value: "", known: true };
      if (n) assigned.push([n, r.known ? r.value : `$${n}`]);
      if (v) this.visitSubstitutions(a);
    }
    const peeled = peel(argv);
    const words = peeled.argv;
    const alias = words[0]?.known ? this.state.aliases.get(words[0].value) : undefined;
    if (alias !== undefined) {
      // the alias runs its text with the rest of the words appended: checked as shell text
      const rest = words.slice(1).map((w) => (w.known ? `'${w.value.replace(/'/g, "'\\''")}'` : w.value));
      this.add(node.text, words.map((w) => w.value).join(" "), "plain", `alias ${words[0]!.value} (its text is checked as its own segments)`);
      this.nestedWith([alias, ...rest].join(" "), assigned);
      return;
    }
    const command = words.map((w) => w.value).join(" ");
    const index = this.segments.length;
    const name = words[0]?.value ?? "";
    const text = node.text;
    const info: StageInfo = { name, readsStdin: false, ...producerOf(name, words, text, herestring !== undefined) };
    this.stage.set(index, info);

    // reserve the segment's slot before nested segments are appended
    this.add(text, command, "plain", "");
    const env = [...assigned.map(([n]) => n), ...peeled.assigned];
    const d = decideCommand(this, { node, argNodes, words, redirects, herestring, fromStdin: peeled.fromStdin, info, assigned: env, wrappers: peeled.wrappers, prefix: assigned });
    const seg = this.segments[index]!;
    seg.kind = d.kind;
    seg.reason = d.reason;
    seg.verdict = d.verdict ?? (d.kind === "floor" ? "deny" : d.kind === "safe" ? "allow" : "ask");
    if (d.kind === "guard") seg.category = d.category ?? "opaque";
    if (seg.kind === "plain" || seg.kind === "safe") {
      const deny = (this.ctx.opts.deny ?? []).find((p) => matchBash(p, command));
      const allow = (this.ctx.opts.allow ?? []).find((p) => matchBash(p, command));
      if (deny) Object.assign(seg, { verdict: "deny", reason: `shell.deny ${deny}` });
      else if (allow && seg.kind === "plain") Object.assign(seg, { verdict: "allow", reason: `shell.allow ${allow}` });
    }
    if (peeled.wrappers.length && !seg.reason.includes("peeled")) seg.reason += ` (peeled: ${peeled.wrappers.join(", ")})`;
    for (const r of inputs) this.secretInputs(r, text);
    this.visitSubstitutions(node);
    afterCommand(this.state, words, homeOf(this.env));
  }

}

function classifyWith(parser: Parser, text: string, ctx: Ctx, depth: number): Segment[] {
  if (text.length > MAX_COMMAND_CHARS) {
    return [{ text: `${text.slice(0, 80)}…`, command: text.slice(0, 80), verdict: "ask", kind: "guard", category: "opaque", reason: `the command is longer than ${MAX_COMMAND_CHARS} characters` }];
  }
  const tree = parser.parse(text);
  if (!tree) return [{ text, command: text, verdict: "ask", kind: "guard", category: "opaque", reason: "the command cannot be parsed" }];
  try {
    const root = tree.rootNode;
    if (root.hasError) {
      const unparsed: Segment = { text, command: text, verdict: "ask", kind: "guard", category: "opaque", reason: "the command cannot be parsed (syntax error)" };
      // best effort: a floor shape between separators still denies (`[[ -d / ]] && rm -rf /` trips the
      // grammar). Only pieces naming a command the floor knows (or a computed one) are parsed, at most 128.
      const split = text.split(/;|&&|\|\|?|&|\n|\$\(|[()`]/);
      const pieces = split.length > 1 && depth < MAX_DEPTH ? split.filter((p) => FLOOR_WORDS.test(p)).slice(0, 128) : [];
      const floor = pieces.flatMap((p) => classifyWith(parser, p, ctx, depth + 1).filter((s) => s.kind === "floor"));
      return [unparsed, ...floor];
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
