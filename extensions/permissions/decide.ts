/**
 * One permission decision. Order (the first that settles wins):
 *   1. the dangerous floor (shell guard), the .env read guard and the /proc guard: deny
 *   2. the rules (last match wins): a deny is final, no mode reopens it
 *   3. the shell guard's catastrophic / unknowable shapes: deny in plan mode, else ask in every mode,
 *      marked autoApprove: false (run --auto rejects it) unless an exact allow rule names the command;
 *      the file guard's asks the same way: a path really outside the project (refs roots and the user's
 *      own external_directory allow excepted), a write to a control file (file-guard.ts)
 *   4. the mode's rules, layered last; the read-only safe list turns a generic (`*`) ask or mode deny
 *      on bash into allow
 *   5. dontAsk: a remaining ask becomes a deny
 * "always" is the narrowest rule for what asked (the segment's exact text), never a guard ask.
 */
import path from "node:path";
import type { ShellGuardService, Segment } from "../shell-guard/api.js";
import { type Refs } from "../tools/api.js";
import { resolveToolPath, isSecretEnvFile, isInside, realPathLoose } from "../tools/kit.js";
import { explicitOutsideAllow, procSecretFile, protectedPath } from "./file-guard.js";
import { lastMatch, toolKey, EXTERNAL_BASE, type Rule, type Action } from "./rules.js";
import { modeRules, type Mode } from "./modes.js";
import type { PermissionDecision } from "./api.js";

/** What decide() returns: the public decision type (api.ts). */
export type Decided = PermissionDecision;

export interface DecideInput {
  tool: string;
  /** the command for bash, the path for file tools, else a string form of the input */
  subject: string;
  cwd: string;
  project: string;
  home: string;
  mode: Mode;
  rules: readonly Rule[];
  refs?: Refs;
  safeListExtra?: string[];
  guard?: ShellGuardService;
  /** bash asked to run outside the sandbox (dangerouslyDisableSandbox): only a person or an exact allow rule approves */
  unconfined?: boolean;
}

const FILE_TOOLS = new Set(["read", "edit", "glob", "grep", "ls", "list"]);

function fromRule(r: Rule, reason: string): Omit<Decided, "always"> {
  return { action: r.action, reason, rule: r.text, layer: r.layer, ...(r.file ? { file: r.file } : {}) };
}

/** Rules then mode for one key: a rule deny is final; a mode rule that matches overrides the rest. */
function evalKey(key: string, subjects: string[], rules: readonly Rule[], mode: Mode): { rule: Rule; final: boolean } {
  const user = lastMatch(rules, key, subjects)!;
  if (user.action === "deny") return { rule: user, final: true };
  const m = lastMatch(modeRules(mode), key, subjects);
  return { rule: m ?? user, final: false };
}

/** Wildcards a pattern cannot escape: a command holding one has no exact rule. */
const WILDCARD = /[*?]/;

/**
 * The narrow rule "always" saves for one asking segment: exactly its text as written (wrappers such as
 * sudo kept, so the rule allows nothing more than what was shown). None when the text holds a wildcard
 * character or a newline, which a one-line exact pattern cannot express.
 */
export function exactBashRule(text: string): string | undefined {
  const t = text.trim();
  if (!t || WILDCARD.test(t) || /[\r\n]/.test(t)) return undefined;
  return `bash ${t} allow`;
}

/**
 * The explicit, exact allow rule for a whole command, when it is the last rule that matches it: a bash
 * rule (Claude Code's `Bash(cmd)` too) with no wildcard whose pattern equals the command. It lets an
 * automatic approver (run --auto) approve the shell guard's ask for exactly that command.
 */
export function exactAllowRule(rules: readonly Rule[], command: string): Rule | undefined {
  const cmd = command.trim();
  const last = lastMatch(rules, "bash", [cmd]);
  if (!last || last.action !== "allow" || last.tool !== "bash" || WILDCARD.test(last.pattern)) return undefined;
  return last.pattern.trim() === cmd ? last : undefined;
}

function finish(d: Decided, mode: Mode): Decided {
  if (d.action === "ask" && mode === "dontAsk") {
    const { always: _always, autoApprove: _auto, residual: _residual, ...rest } = d;
    return { ...rest, action: "deny", reason: `${d.reason} (dontAsk mode refuses what would ask)`, layer: "mode", rule: "dontAsk" };
  }
  return d;
}

type SegmentOut = NonNullable<Decided["segments"]>[number];

function segmentOut(s: Segment, decision: Action, reason: string, rule: string, layer: string, file?: string): SegmentOut {
  const guard = { verdict: s.verdict, reason: s.reason, ...(s.category ? { category: s.category } : {}) };
  return { text: s.text, command: s.command, kind: s.kind, ...(s.category ? { category: s.category } : {}), guard, decision, reason, rule, layer, ...(file ? { file } : {}) };
}

async function decideBash(inp: DecideInput): Promise<Decided> {
  const segments: Segment[] = inp.guard
    ? (await inp.guard.classify(inp.subject, { cwd: inp.cwd, project: inp.project, home: inp.home, safeListExtra: inp.safeListExtra })).segments
    : [{ text: inp.subject, command: inp.subject.trim(), verdict: "ask", kind: "plain", reason: "shell guard not installed" }];
  const out: SegmentOut[] = [];
  /** segments asked by a generic `*` rule (a residual ask: nothing specific settled them) */
  const generic = new Set<SegmentOut>();
  for (const s of segments) {
    const subjects = [s.command, s.text];
    if (s.kind === "floor") {
      out.push(segmentOut(s, "deny", s.reason, "dangerous floor", "floor"));
      continue;
    }
    const { rule, final } = evalKey("bash", subjects, inp.rules, inp.mode);
    if (final) {
      out.push(segmentOut(s, "deny", `${rule.text} matched '${s.command}'`, rule.text, rule.layer, rule.file));
      continue;
    }
    if (s.kind === "guard") {
      // plan mode is read-only: what the guard would ask about is off the safe list, so it is denied
      if (inp.mode === "plan") out.push(segmentOut(s, "deny", `plan mode is read-only (${s.reason})`, "bash * deny", "mode"));
      else out.push(segmentOut(s, "ask", s.reason, "shell guard", "guard"));
      continue;
    }
    if (s.kind === "safe" && rule.action !== "allow" && rule.pattern === "*") {
      out.push(segmentOut(s, "allow", `${s.reason} (read-only safe list)`, "safe list", "safe-list"));
      continue;
    }
    const seg = segmentOut(s, rule.action, `${rule.text} matched '${s.command}'`, rule.text, rule.layer, rule.file);
    if (rule.action === "ask" && rule.pattern.trim() === "*") generic.add(seg);
    out.push(seg);
  }
  if (!out.length) return { action: "allow", reason: "empty command", rule: BASE_TEXT, layer: "default", segments: out };
  const guardAsk = out.find((s) => s.decision === "ask" && s.layer === "guard");
  const pick =
    out.find((s) => s.decision === "deny") ?? guardAsk ?? out.find((s) => s.decision === "ask") ?? out.find((s) => s.layer !== "default" && s.layer !== "safe-list") ?? out[0]!;
  const d: Decided = {
    action: pick.decision,
    reason: pick.decision === "allow" ? (out.length > 1 ? "every segment is allowed" : pick.reason) : `${pick.reason}: ${pick.text}`,
    rule: pick.rule,
    layer: pick.layer,
    ...(pick.file ? { file: pick.file } : {}),
    segments: out,
  };
  if (d.action === "ask") {
    if (guardAsk) {
      // a guard ask is never saved as "always"; only an exact allow rule lets --auto approve it
      d.autoApprove = exactAllowRule(inp.rules, inp.subject) !== undefined;
    } else {
      const always = exactBashRule(pick.text);
      if (always) d.always = always;
    }
    d.residual = !guardAsk && out.every((s) => s.decision !== "ask" || generic.has(s));
  }
  return finish(inp.unconfined ? escalation(d, inp) : d, inp.mode);
}

export const UNCONFINED_REASON =
  "the command asks to run outside the sandbox (dangerouslyDisableSandbox): only a person, or an exact allow rule for the command, can approve an unconfined run";

/** An unconfined run is asked for by name: a person answers; an automatic approver only with an exact allow rule. */
function escalation(d: Decided, inp: DecideInput): Decided {
  if (d.action === "deny") return d;
  const exact = exactAllowRule(inp.rules, inp.subject);
  if (exact) return { ...d, unconfined: true, ...(d.action === "ask" ? { autoApprove: true } : {}) };
  const { residual: _r, ...rest } = d;
  const always = exactBashRule(inp.subject);
  return { ...rest, action: "ask", reason: `${UNCONFINED_REASON}: ${inp.subject.trim()}`, autoApprove: false, unconfined: true, ...(always ? { always } : {}) };
}

/** /proc/<pid>/environ and cmdline hold a process's secrets (oceancode's API keys): never read. */
export function isProcSecret(abs: string): boolean {
  return /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?(?:environ|cmdline)$/.test(abs);
}
const BASE_TEXT = "* * allow";

async function decideFile(inp: DecideInput, key: string): Promise<Decided> {
  const resolved = resolveToolPath(inp.subject || ".", { cwd: inp.cwd, refs: inp.refs, project: inp.project, home: inp.home });
  const abs = resolved.path;
  const inside = isInside(abs, inp.project);
  const rel = inside ? path.relative(inp.project, abs) || "." : abs;
  const subjects = [rel, abs, inp.subject];
  if (isProcSecret(abs)) {
    return { action: "deny", reason: `${abs}: a process's environment and command line hold secrets and are never read`, rule: "/proc guard", layer: "file-guard" };
  }
  if (key === "read" && isSecretEnvFile(abs)) {
    return { action: "deny", reason: `${rel}: .env files hold secrets and are never read (.env.example reads)`, rule: ".env guard", layer: "file-guard" };
  }
  if (procSecretFile(abs)) {
    return { action: "deny", reason: `${abs}: a process's environment, command line or memory holds secrets and is never read`, rule: "/proc guard", layer: "file-guard" };
  }
  const { rule, final } = evalKey(key, subjects, inp.rules, inp.mode);
  if (final) return fromRule(rule, `${rule.text} matched '${rel}'`);
  let d: Decided = { ...fromRule(rule, `${rule.text} matched '${rel}'`) };
  if (rule.action === "ask" && !WILDCARD.test(rel)) d.always = `${key} ${rel} allow`;
  // the guard's asks: a person answers them; --auto and the modes never do
  const planDeny = inp.mode === "plan" && key === "edit";
  const guardAsk = (reason: string, always?: string): Decided => ({
    action: planDeny ? "deny" : "ask",
    reason: planDeny ? `plan mode is read-only (${reason})` : reason,
    rule: "file guard",
    layer: "guard",
    autoApprove: false,
    ...(always && !planDeny ? { always } : {}),
  });
  if (!inside && resolved.ref?.inside !== true) {
    const escaped = resolved.ref && !resolved.ref.inside ? ` (@${resolved.ref.name} walks out of its root ${resolved.ref.root})` : "";
    const ext = lastMatch([EXTERNAL_BASE, ...inp.rules.filter((r) => r.tool === "external_directory")], "external_directory", [abs, path.dirname(abs)])!;
    if (ext.action === "deny") return fromRule(ext, `${abs} is outside the project${escaped}`);
    const own = explicitOutsideAllow(inp.rules, abs);
    if (!own) {
      const real = realPathLoose(abs);
      const where = real !== abs ? `${abs} (really ${real})` : abs;
      return finish(guardAsk(`${where} is outside the project ${inp.project}${escaped}`, `external_directory ${path.dirname(abs)}/* allow`), inp.mode);
    }
  }
  if (key === "edit") {
    const prot = protectedPath(abs, inp.project);
    if (prot && !(d.action === "allow" && exactPathRule(d, rel))) return finish(guardAsk(`${prot}: a write there changes what runs later`), inp.mode);
  }
  return finish(d, inp.mode);
}

/** A user rule naming exactly this control file (`edit .mcp.json allow`) lets its write through. */
function exactPathRule(d: Decided, rel: string): boolean {
  if (d.layer === "mode" || d.layer === "default") return false;
  const m = /^\S+\s+(.*\S)\s+allow$/.exec(d.rule);
  return m?.[1] === rel;
}

export async function decide(inp: DecideInput): Promise<Decided> {
  const key = toolKey(inp.tool);
  if (key === "bash") return decideBash(inp);
  if (FILE_TOOLS.has(key)) return decideFile(inp, key);
  const { rule } = evalKey(key, [inp.subject], inp.rules, inp.mode);
  const d: Decided = fromRule(rule, `${rule.text} matched ${key}`);
  if (d.action === "ask") d.always = `${key} * allow`;
  return finish(d, inp.mode);
}

/** Tools whose last rule for their key is a `*` deny are not offered to the model. */
export function removedTools(names: string[], rules: readonly Rule[], mode: Mode): Set<string> {
  const all = [...rules, ...modeRules(mode)];
  const out = new Set<string>();
  for (const n of names) {
    const key = toolKey(n);
    let last: Rule | undefined;
    for (const r of all) if (r.tool === key || r.tool === "*") last = r;
    // a rule deny is final, so a later mode rule cannot bring the tool back
    const userDeny = [...rules].reverse().find((r) => r.tool === key || r.tool === "*");
    if (userDeny?.action === "deny" && userDeny.pattern === "*") out.add(n);
    else if (last?.action === "deny" && last.pattern === "*" && !last.keepsTool) out.add(n);
  }
  return out;
}
