/** `ls {path?, ignore?}`: one directory's entries, directories marked with a trailing "/". */
import fs from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { optString, toolPath, ToolInputError } from "./common.js";
import { globToRegExp } from "./glob-match.js";
import { pathMapping } from "./subject.js";

export const LS_MAX_ENTRIES = 1000;

export function lsTool(opts: ToolsOptions): ToolDefinition {
  return {
    name: "ls",
    kind: "read",
    claudeName: "LS",
    description: "List a directory's entries (directories end with /, symlinks show their target). Use glob to find files by pattern across a tree.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "the directory (default: the working directory)" },
        ignore: { type: "array", items: { type: "string" }, description: "glob patterns of names to leave out" },
      },
      additionalProperties: false,
    },
    ...pathMapping(opts, "path", "."),
    async run(input, ctx) {
      const dir = toolPath(opts, ctx, optString("ls", input, "path") ?? ".");
      const ignore = input.ignore;
      if (ignore !== undefined && (!Array.isArray(ignore) || ignore.some((g) => typeof g !== "string"))) {
        throw ToolInputError({ message: "ls: 'ignore' must be a list of glob strings" });
      }
      const skip = ((ignore as string[] | undefined) ?? []).map((g) => globToRegExp(g));
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOTDIR") throw ToolInputError({ message: `ls: ${dir} is a file, not a directory; use read to see it` });
        if (code === "ENOENT") throw ToolInputError({ message: `ls: ${dir} does not exist` });
        throw e;
      }
      const names = entries
        .filter((e) => !skip.some((re) => re.test(e.name)))
        .map((e) => {
          if (e.isDirectory()) return `${e.name}/`;
          if (e.isSymbolicLink()) {
            let target = "?";
            try {
              target = fs.readlinkSync(path.join(dir, e.name));
            } catch {
              // unreadable link
            }
            return `${e.name} -> ${target}`;
          }
          return e.name;
        })
        .sort();
      if (names.length === 0) return { content: `${dir}: (empty directory)`, metadata: { count: 0 } };
      const shown = names.slice(0, LS_MAX_ENTRIES);
      const more = names.length > shown.length ? `\n(${names.length - shown.length} more entries not shown; use glob to narrow)` : "";
      return { content: `${dir}:\n${shown.join("\n")}${more}`, metadata: { count: names.length } };
    },
  };
}
