/**
 * The published contract `oceancode/api/shell-guard` (service "shell-guard"): types, the service
 * interface and the rule pattern syntax (`wildcard`, `matchBash`, pattern.ts), which the permission rules
 * match with too. Other extensions import only this file, and reach the guard through the service
 * (`ctx.services.tryGet("shell-guard")`, typed by the ServiceMap entry below).
 *
 * classify() splits a bash command into segments (pipelines, && || ;, subshells, $(...), backticks,
 * bash -c strings, eval), peels wrappers (sudo, env, nice, timeout, xargs, command, VAR=val, /bin/rm)
 * and gives each segment a kind:
 *  - "floor"  the dangerous floor: deny, and no rule or mode can reopen it
 *  - "guard"  catastrophic, persistent or unknowable: ask even when rules allow. Its `category` says
 *             which (see GuardCategory): a recursive delete of ~ / the project / an unresolved target,
 *             a secret file read (cat .env), a write that persists outside the task (~/.bashrc,
 *             ~/.ssh, cron, git hooks), lost history (rm -rf .git, git reset --hard), inline
 *             interpreter code with one of those shapes, or text it cannot see (unparseable, too
 *             long, eval of unknown text, a computed command name)
 *  - "safe"   on the read-only safe list, an allow-list of forms (every flag known to read, no
 *             environment but locale/colour/TZ, no wrapper that changes the user): allowed without a rule
 *  - "plain"  anything else: the permission rules decide (the guard alone says ask)
 */
export { type PathCtx } from "./paths.js";

export type Verdict = "allow" | "ask" | "deny";
export type SegmentKind = "floor" | "guard" | "safe" | "plain";

/**
 * Why a guard segment asks:
 *  - "delete"       recursive delete, move, truncation, rsync --delete or extraction that reaches ~, the
 *                   project root (or an ancestor), or an unresolved target, however it is spelled
 *  - "secret-read"  reads a secret file (.env, ~/.ssh/id_*, ~/.aws/credentials, /proc/<pid>/environ, ...),
 *                   through any reader, git show :.env and git diff --no-index included
 *  - "persistence"  a write that outlives the task (~/.ssh, shell rc files, cron, git hooks, systemd
 *                   user units, recursive chmod/chown of home or an ancestor of the project)
 *  - "history"      destroys git history or uncommitted work (rm -rf .git, git clean -fd, git reset --hard)
 *  - "inline-code"  inline interpreter code (python -c, node -e, ...) that deletes recursively, shells
 *                   out or reads a secret
 *  - "opaque"       the guard cannot see what runs (unparseable, too long, eval / bash -c of unknown
 *                   text, a script from a pipe, a computed command name)
 */
export type GuardCategory = "delete" | "secret-read" | "persistence" | "history" | "inline-code" | "opaque";

export interface Segment {
  /** the segment's source text as written */
  text: string;
  /** the command after peeling wrappers, words resolved where possible (what rules match) */
  command: string;
  verdict: Verdict;
  kind: SegmentKind;
  reason: string;
  /** set on kind "guard": why it asks */
  category?: GuardCategory;
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

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    "shell-guard": ShellGuardService;
  }
}
