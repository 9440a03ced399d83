/**
 * The published contract `oceancode/api/tools`: the core tools' options and limits, and the path rules
 * they follow (paths.ts): the permissions extension and third-party tools resolve paths with these helpers,
 * so they agree with the core tools on what a path names.
 */
export { type Refs, type ResolvedToolPath } from "./paths.js";
export { type TouchedPath } from "./touched.js";
/** where a session's kept tool output lives (the sandbox keeps it readable for confined commands) */

/** the file walk grep and glob use (.gitignore honoured, .git and node_modules pruned) and their glob matcher */
export { DEFAULT_SKIP, type WalkOptions } from "./filewalk.js";

/**
 * edit and write return `diff` (ToolOutput.diff, carried to ToolResult.diff; never sent to the model) and
 * give their permission questions a `preview` with the diff the call would make; a host draws it.
 */
export { MAX_DIFF_LINES } from "./diff.js";
export type { FileDiff, DiffHunk, QuestionPreview } from "../engine/api.js";

/**
 * A background job that is no process (a background sub-agent), registered in the session's job table
 * with startTaskJob(ctx.state, { command, cancel, session: ctx.session }) (`session`: so the run ending its
 * jobs finds it): it gets the next `job_N` id, `job_output` reads what
 * its owner wrote since the last read and its status, `job_kill` (and a run ending its jobs) calls cancel.
 */
export interface TaskJob {
  readonly id: string;
  /** job_kill (or the run) stopped it: its owner should stop and write nothing more */
  readonly cancelled: boolean;
  /** append output (ignored once the job was killed) */
  write(text: string): void;
  /**
   * The job ended: `code` 0 done, another number failed (status "exited" with that exit code); "killed":
   * it was cancelled by other means than job_kill (its parent interrupted), recorded as killed. A job
   * job_kill stopped stays "killed".
   */
  end(code: number | "killed"): void;
}
/**
 * The service "jobs" (the tools extension): the background jobs of a session and of its sub-agents. The
 * bounds extension ends them with a run that has a wall clock; without one they run until they exit or
 * job_kill stops them.
 */
export interface JobsService {
  /** The running jobs of a session and of its sub-agents (their sessions, by parentId). */
  running(sessionId: string): JobSummary[];
  /** Kill every running job of a session and of its sub-agents (process groups; task jobs cancelled). Resolves to how many. */
  killSession(sessionId: string): Promise<number>;
}

export interface JobSummary {
  id: string;
  command: string;
  /** the process group leader; undefined for a task job */
  pid?: number;
  startedAt: number;
}

import type { Refs } from "./paths.js";

/** Options the tools are built with (from config at activation; tests build them directly). */
export interface ToolsOptions {
  /** the project root (rule subjects are relative to it) */
  project: string;
  home: string;
  /** full outputs of truncated results go under <dataDir>/tool-output/<session>/<call>.txt */
  dataDir: string;
  /** `tools.max_output_chars` (default 30000) */
  maxOutputChars: number;
  /** `tools.max_output_bytes` (default 4 MiB): a spill file keeps at most this much, head and tail */
  maxOutputBytes?: number;
  /** `tools.bash_timeout_ms` default timeout for bash (120000) */
  bashTimeoutMs: number;
  refs: Refs;
  /** use ripgrep when found on PATH (default true) */
  useRipgrep: boolean;
}

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Under this size a file this session created may be overwritten without a read. */
export const CREATED_FILE_EXCEPTION_BYTES = 64 * 1024;

/**
 * Choosing which block of a long output to keep (blocks.ts): split the full text kept on disk into blocks
 * and compose the view that keeps one of them. A tap on engine.toolResult reads a truncated result's
 * `truncated.fullPath`, picks a block and replaces `content` with keepOutputBlock(...); without such a tap
 * the model sees today's head + tail.
 */
export { MAX_OUTPUT_BLOCKS, type OutputBlock } from "./blocks.js";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    jobs: JobsService;
  }
}
