/**
 * The file tools' own guard, above rules and modes: a path whose real location (symlinks followed) is
 * outside the project asks and is never approved by `--auto` or a mode, unless a refs root holds it or
 * the user's own rule allows that outside path (`external_directory <dir>/* allow`); writes to the
 * project's control files (.git/, .oceancode/, .claude settings, .mcp.json: they run code or loosen
 * rules later) ask the same way; a process's environment, command line or memory is never read.
 */
import path from "node:path";
import { realPathLoose } from "../tools/kit.js";
import { procSecret } from "../shell-guard/kit.js";
import { lastMatch, EXTERNAL_BASE, type Rule } from "./rules.js";

/** /proc/<pid>/environ and friends: oceancode's own hold the keys. */
export function procSecretFile(abs: string): boolean {
  return procSecret(abs) || procSecret(realPathLoose(abs));
}

/** Project files that configure what runs later: a write there asks a person. */
const PROTECTED: Array<[RegExp, string]> = [
  [/^\.git(\/|$)/, "git's own folder (hooks and config run programs)"],
  [/^\.oceancode\/(?!plans\/)/, "oceancode's project config (rules, hooks, extensions)"],
  [/^\.oceancode$/, "oceancode's project config (rules, hooks, extensions)"],
  [/^\.claude\/(settings(\.local)?\.json|hooks(\/.*)?)$/, "Claude Code settings (permissions and hooks)"],
  [/^\.mcp\.json$/, "the MCP server list (servers are programs that run)"],
  [/^\.gitmodules$/, "the submodule list"],
];

/** What protected control file a project-relative path (lexical or real) is, if any. */
export function protectedPath(abs: string, project: string): string | undefined {
  const rels = [path.relative(project, abs), path.relative(realPathLoose(project), realPathLoose(abs))];
  for (const rel of rels) {
    if (rel.startsWith("..") || path.isAbsolute(rel)) continue;
    const r = rel.split(path.sep).join("/");
    for (const [re, what] of PROTECTED) if (re.test(r)) return `${r} is ${what}`;
  }
  return undefined;
}

/** The user's own explicit allow for an outside path: an external_directory rule, never a mode or the default. */
export function explicitOutsideAllow(rules: readonly Rule[], abs: string): Rule | undefined {
  const own = rules.filter((r) => r.tool === "external_directory" && r.layer !== "mode" && r.layer !== "default");
  const m = lastMatch([EXTERNAL_BASE, ...own], "external_directory", [abs, path.dirname(abs)]);
  return m && m.action === "allow" && m !== EXTERNAL_BASE ? m : undefined;
}
