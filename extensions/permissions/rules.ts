/**
 * Rules: "<tool> <pattern> <action>" (the pattern may hold spaces) or "Tool(pattern) <action>", and
 * Claude Code's "Tool(specifier)" entries. Matching is last-match-wins over the base "* * allow".
 */
import os from "node:os";
import path from "node:path";
import { wildcard } from "../shell-guard/kit.js";

export type Action = "allow" | "ask" | "deny";
export type Layer = "default" | "global" | "project" | "managed" | "requirements" | "claude" | "shell" | "mode" | "session";

export interface Rule {
  tool: string;
  pattern: string;
  action: Action;
  /** the rule as written (for messages) */
  text: string;
  layer: Layer;
  file?: string;
  /** a mode rule that must not remove the tool from the request (plan's bash deny: the safe list still runs) */
  keepsTool?: boolean;
}

const EDIT_TOOLS = new Set(["edit", "write", "apply_patch", "hashline", "multiedit", "multi_edit", "notebookedit"]);

/** The rule key of a tool name: lower case; write, apply_patch and hashline count as edit. */
export function toolKey(name: string): string {
  const k = name.trim().toLowerCase();
  return EDIT_TOOLS.has(k) ? "edit" : k;
}

/** Bash(git push:*) means "git push *"; an empty specifier means *. */
function normalizePattern(tool: string, spec: string, home: string): string {
  let p = spec.trim();
  if (p === "") return "*";
  if (tool === "bash") return p.replace(/:\*$/, " *");
  if (p.startsWith("//")) p = p.slice(1);
  else if (p === "~" || p.startsWith("~/")) p = path.join(home, p.slice(1));
  else if (p.startsWith(".//")) p = p.slice(2);
  return p;
}

const TOOL_PATTERN = /^([A-Za-z_*][\w*-]*)\(([\s\S]*)\)$/;

/** Parse a Tool(pattern) entry (Claude Code form). */
export function parseToolPattern(entry: string, home = os.homedir()): { tool: string; pattern: string } | string {
  const s = entry.trim();
  const m = TOOL_PATTERN.exec(s);
  if (m) {
    const tool = toolKey(m[1]!);
    return { tool, pattern: normalizePattern(tool, m[2]!, home) };
  }
  if (/^[A-Za-z_*][\w*-]*$/.test(s)) return { tool: toolKey(s), pattern: "*" };
  return `expected Tool or Tool(pattern), e.g. Bash(git push:*)`;
}

/** Parse one `permission` entry. Returns the rule or why it is malformed. */
export function parseRule(entry: unknown, where: { layer: Layer; file?: string }, home = os.homedir()): Rule | string {
  if (typeof entry !== "string") return `expected a string "<tool> <pattern> <action>", got ${JSON.stringify(entry)}`;
  const s = entry.trim();
  const last = s.lastIndexOf(" ");
  if (last < 0) return `expected "<tool> <pattern> <action>" (e.g. "bash git push * deny")`;
  const action = s.slice(last + 1);
  if (action !== "allow" && action !== "ask" && action !== "deny") return `the last word must be allow, ask or deny (got '${action}')`;
  const head = s.slice(0, last).trim();
  if (TOOL_PATTERN.test(head)) {
    const tp = parseToolPattern(head, home);
    if (typeof tp === "string") return tp;
    return { ...tp, action, text: s, ...where };
  }
  const sp = head.indexOf(" ");
  if (sp < 0) return `expected "<tool> <pattern> <action>": a pattern is missing (use * for all)`;
  const tool = toolKey(head.slice(0, sp));
  if (!/^[\w*.-]+$/.test(tool)) return `'${head.slice(0, sp)}' is not a tool name`;
  return { tool, pattern: normalizePattern(tool, head.slice(sp + 1), home), action, text: s, ...where };
}

export function ruleMatches(rule: Rule, key: string, subjects: string[]): boolean {
  if (rule.tool !== "*" && rule.tool !== key) return false;
  if (rule.pattern === "*") return true;
  const re = wildcard(rule.pattern);
  return subjects.some((s) => re.test(s));
}

/** The last matching rule (rules are in precedence order, base first). */
export function lastMatch(rules: readonly Rule[], key: string, subjects: string[]): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) if (ruleMatches(rules[i]!, key, subjects)) return rules[i];
  return undefined;
}

export const BASE_RULE: Rule = { tool: "*", pattern: "*", action: "allow", text: "* * allow", layer: "default" };
export const EXTERNAL_BASE: Rule = { tool: "external_directory", pattern: "*", action: "ask", text: "external_directory * ask", layer: "default" };
