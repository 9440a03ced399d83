/** `glob {pattern, path?}`: files matching a glob, newest first (skips .git and node_modules). */
import fs from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { reqString, optString, toolPath, ToolInputError } from "./common.js";
import { DEFAULT_SKIP, walkFiles } from "./filewalk.js";
import { globToRegExp, staticPrefix } from "./glob-match.js";
import { pathMapping } from "./subject.js";

export const GLOB_MAX_RESULTS = 200;

export function globFiles(root: string, pattern: string): string[] {
  const { base, rest } = staticPrefix(pattern);
  const start = path.resolve(root, base);
  if (!fs.existsSync(start) || !fs.statSync(start).isDirectory()) return [];
  const re = globToRegExp(rest);
  const skip = pattern.includes("node_modules") ? new Set([".git"]) : DEFAULT_SKIP;
  const out: string[] = [];
  walkFiles(start, { gitignore: false, skipDirs: skip, maxFiles: 500_000 }, (abs, rel) => void (re.test(rel) && out.push(abs)));
  return out;
}

export function globTool(opts: ToolsOptions): ToolDefinition {
  return {
    name: "glob",
    kind: "search",
    claudeName: "Glob",
    description: `Find files by name with a glob pattern (e.g. "**/*.ts", "src/**/*.{ts,tsx}"). Returns paths newest first, at most ${GLOB_MAX_RESULTS}.`,
    inputSchema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "the glob, relative to path" },
        path: { type: "string", description: "directory to search (default: the working directory)" },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    ...pathMapping(opts, "path"),
    async run(input, ctx) {
      let pattern = reqString("glob", input, "pattern", "the glob to match");
      let root = toolPath(opts, ctx, optString("glob", input, "path") ?? ".");
      if (path.isAbsolute(pattern)) {
        root = "/";
        pattern = pattern.slice(1);
      }
      if (!fs.existsSync(root)) throw ToolInputError({ message: `glob: ${root} does not exist` });
      const files = globFiles(root, pattern);
      if (files.length === 0) return { content: "No files found", metadata: { count: 0 } };
      const mtime = new Map(files.map((f) => [f, statMtime(f)]));
      files.sort((a, b) => mtime.get(b)! - mtime.get(a)! || (a < b ? -1 : 1));
      const shown = files.slice(0, GLOB_MAX_RESULTS);
      const more = files.length > shown.length ? `\n(${files.length - shown.length} more not shown; narrow the pattern)` : "";
      return { content: `${shown.join("\n")}${more}`, metadata: { count: files.length } };
    },
  };
}

function statMtime(f: string): number {
  try {
    return fs.statSync(f).mtimeMs;
  } catch {
    return 0;
  }
}
