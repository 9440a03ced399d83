/**
 * The shell guard's public API (service "shell-guard"). Other extensions import only this file.
 *
 * classify() splits a bash command into segments (pipelines, && || ;, subshells, $(...), backticks,
 * bash -c strings, eval), peels wrappers (sudo, env, nice, timeout, xargs, command, VAR=val, /bin/rm)
 * and gives each segment a kind:
 *  - "floor"  the dangerous floor: deny, and no rule or mode can reopen it
 *  - "guard"  catastrophic or unknowable (recursive delete of ~ / the project / through an unset
 *             variable, unparseable, too long, eval of unknown text): ask even when rules allow
 *  - "safe"   on the read-only safe list (flag-aware): allowed without a rule
 *  - "plain"  anything else: the permission rules decide (the guard alone says ask)
 */
export type Verdict = "allow" | "ask" | "deny";
export type SegmentKind = "floor" | "guard" | "safe" | "plain";

export interface Segment {
  /** the segment's source text as written */
  text: string;
  /** the command after peeling wrappers, words resolved where possible (what rules match) */
  command: string;
  verdict: Verdict;
  kind: SegmentKind;
  reason: string;
}

export interface Classification {
  /** deny if any segment denies, else ask if any asks, else allow */
  verdict: Verdict;
  segments: Segment[];
  reason: string;
}

export interface ClassifyOptions {
  /** the working directory the command runs in (relative paths resolve against it) */
  cwd?: string;
  /** the project root (recursive deletion of it asks) */
  project?: string;
  /** the home directory (~ and $HOME; recursive deletion of it asks) */
  home?: string;
  /** shell.safe_list_extra: extra read-only command prefixes, e.g. "make check" */
  safeListExtra?: string[];
  /** shell.allow / shell.deny as bash patterns ("git push *"); applied to "plain" and "safe" segments only */
  allow?: string[];
  deny?: string[];
}

export interface ShellGuardService {
  classify(command: string, opts?: ClassifyOptions): Promise<Classification>;
}

/** Longest command the guard parses; longer ones ask. */
export const MAX_COMMAND_CHARS = 10_000;

/** Convenience for tests and tools: classify without going through the service. */
export async function classify(command: string, opts: ClassifyOptions = {}): Promise<Classification> {
  const mod = await import("./classify.js");
  return mod.classifyCommand(command, opts);
}

/** Rule patterns (`*` any run, `?` one char; "git push *" also matches bare "git push"), shared with the permissions rules. */
export { wildcard, matchBash } from "./pattern.js";
