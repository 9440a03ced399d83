/**
 * The published contract `oceancode/api/tools`: the core tools' options and limits, and the path rules
 * they follow (paths.ts): the permissions extension and third-party tools resolve paths with these helpers,
 * so they agree with the core tools on what a path names.
 */
export {
  refRoot,
  resolveToolPath,
  realPathLoose,
  isInside,
  isSecretEnvFile,
  type Refs,
  type ResolvedToolPath,
} from "./paths.js";
export { toolPaths, type TouchedPath } from "./touched.js";
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
