/** Claude Code shapes and permission-rule subjects for the file tools. */
import path from "node:path";
import type { ToolDefinition } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { resolveToolPath } from "./paths.js";

/** A path as a rule sees it: relative to the project when inside it, else absolute. */
export function ruleSubjectPath(opts: ToolsOptions, raw: unknown, cwd: string): string {
  const p = resolveToolPath(typeof raw === "string" && raw ? raw : ".", { cwd, refs: opts.refs, project: opts.project, home: opts.home }).path;
  const rel = path.relative(opts.project, p);
  if (rel === "") return ".";
  return rel.startsWith("..") || path.isAbsolute(rel) ? p : rel.split(path.sep).join("/");
}

/** Claude Code's hook payloads carry absolute paths: make `field` absolute (refs expanded). */
export function absoluteField(opts: ToolsOptions, input: Record<string, unknown>, field: string, cwd: string): Record<string, unknown> {
  const v = input[field];
  if (typeof v !== "string" || v === "") return { ...input };
  return { ...input, [field]: resolveToolPath(v, { cwd, refs: opts.refs, project: opts.project, home: opts.home }).path };
}

/**
 * The Claude Code mapping every path tool shares: the path field made absolute for hook payloads, input
 * taken back as is, and the project-relative path as the rule subject. `fallback` fills an absent path.
 */
export function pathMapping(
  opts: ToolsOptions,
  field: string,
  fallback?: string,
): Pick<ToolDefinition, "toClaudeInput" | "fromClaudeInput" | "ruleSubject"> {
  const withPath = (input: Record<string, unknown>) => (fallback !== undefined && input[field] === undefined ? { ...input, [field]: fallback } : input);
  return {
    toClaudeInput: (input, cwd) => absoluteField(opts, withPath(input), field, cwd),
    fromClaudeInput: (input) => ({ ...input }),
    ruleSubject: (input, cwd) => ruleSubjectPath(opts, withPath(input)[field], cwd),
  };
}
