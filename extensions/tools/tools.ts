/** Build every core tool from options (activation reads them from config; tests build them directly). */
import type { ToolDefinition } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { DEFAULT_BASH_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_CHARS } from "./api.js";
import { bashTool } from "./bash.js";
import { finishTool } from "./common.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { jobKillTool, jobOutputTool } from "./jobs.js";
import { lsTool } from "./ls.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

export function toolsOptions(partial: Partial<ToolsOptions> & Pick<ToolsOptions, "project" | "home" | "dataDir">): ToolsOptions {
  return {
    maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
    bashTimeoutMs: DEFAULT_BASH_TIMEOUT_MS,
    refs: {},
    useRipgrep: true,
    ...partial,
  };
}

export function createTools(opts: ToolsOptions): ToolDefinition[] {
  return [bashTool(opts), jobOutputTool(), jobKillTool(), readTool(opts), writeTool(opts), editTool(opts), grepTool(opts), globTool(opts), lsTool(opts)].map(
    (t) => finishTool(t, opts),
  );
}
