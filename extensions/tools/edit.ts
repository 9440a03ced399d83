/** `edit {file_path, old_string, new_string, replace_all?}`: exact string replacement in a file read this session. */
import fs from "node:fs";
import type { ToolDefinition } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { reqString, optBool, toolPath, ToolInputError } from "./common.js";
import { recordRead, writeRefusal } from "./guards.js";
import { looksBinary, numberLines } from "./read.js";
import { toolsState } from "./state.js";
import { pathMapping } from "./subject.js";
import { statTarget } from "./write.js";
import { fileDiff, readForPreview, snippetDiff } from "./diff.js";
import type { FileDiff, QuestionPreview } from "../engine/api.js";

/** The text after the edit, or undefined when old_string does not apply (the run says why). */
function applyEdit(text: string, oldS: string, newS: string, all: boolean): string | undefined {
  const n = countOccurrences(text, oldS);
  if (n === 0 || (n > 1 && !all)) return undefined;
  const at = text.indexOf(oldS);
  return all ? text.split(oldS).join(newS) : text.slice(0, at) + newS + text.slice(at + oldS.length);
}

/** The permission question's diff: against the file when it may be read for this, else the replaced text alone. */
function editPreview(opts: ToolsOptions, input: Record<string, unknown>, cwd: string): QuestionPreview | undefined {
  const raw = input.file_path;
  const oldS = input.old_string;
  const newS = input.new_string;
  if (typeof raw !== "string" || typeof oldS !== "string" || typeof newS !== "string" || !raw) return undefined;
  const file = toolPath(opts, { cwd }, raw);
  const text = readForPreview(opts.project, file);
  if (text === "outside") return { diff: snippetDiff(file, oldS, newS) };
  if (text === undefined) return undefined;
  const next = applyEdit(text, oldS, newS, input.replace_all === true);
  const diff = next === undefined ? undefined : fileDiff(file, text, next);
  return diff ? { diff } : undefined;
}

export function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

export function editTool(opts: ToolsOptions): ToolDefinition {
  return {
    name: "edit",
    kind: "edit",
    claudeName: "Edit",
    description:
      "Replace an exact string in a file. old_string must match the file exactly (whitespace included) and be unique unless replace_all is true. The file must have been read this session and be unchanged on disk since.",
    inputSchema: {
      type: "object",
      properties: {
        file_path: { type: "string", description: "the file to change" },
        old_string: { type: "string", description: "the exact text to replace" },
        new_string: { type: "string", description: "the text to put in its place (must differ from old_string)" },
        replace_all: { type: "boolean", description: "replace every occurrence (default false)" },
      },
      required: ["file_path", "old_string", "new_string"],
      additionalProperties: false,
    },
    ...pathMapping(opts, "file_path"),
    preview: (input, cwd) => editPreview(opts, input, cwd),
    async run(input, ctx) {
      const file = toolPath(opts, ctx, reqString("edit", input, "file_path", "the file to change"));
      const oldS = reqString("edit", input, "old_string", "the exact text to replace");
      const newS = input.new_string;
      if (typeof newS !== "string") throw ToolInputError({ message: "edit: 'new_string' is required and must be a string" });
      const all = optBool("edit", input, "replace_all") ?? false;
      if (oldS === newS) throw ToolInputError({ message: "edit: old_string and new_string are identical; nothing would change" });
      const st = statTarget("edit", file);
      if (!st) throw ToolInputError({ message: `edit: ${file} does not exist; use write to create it` });
      const buf = fs.readFileSync(file);
      const state = toolsState(ctx);
      const refusal = writeRefusal(state, file, buf, st);
      if (refusal) return { content: refusal, isError: true };
      if (looksBinary(buf)) throw ToolInputError({ message: `edit: ${file} is a binary file` });
      const text = buf.toString("utf8");
      const n = countOccurrences(text, oldS);
      if (n === 0) throw ToolInputError({ message: `edit: old_string was not found in ${file}; read the file and copy the exact text (whitespace and indentation included)` });
      if (n > 1 && !all) throw ToolInputError({ message: `edit: old_string matches ${n} times in ${file}; include more surrounding lines to make it unique, or set replace_all: true` });
      const at = text.indexOf(oldS);
      const next = applyEdit(text, oldS, newS, all)!;
      fs.writeFileSync(file, next);
      recordRead(state, file, next);
      const firstLine = text.slice(0, at).split("\n").length;
      const snippetStart = Math.max(1, firstLine - 3);
      const snippet = numberLines(next, snippetStart, newS.split("\n").length + 6).body;
      const count = all ? n : 1;
      return {
        content: `Edited ${file}: ${count} replacement${count === 1 ? "" : "s"}\n${snippet}`,
        metadata: { path: file, replacements: count },
        ...withDiff(fileDiff(file, text, next)),
      };
    },
  };
}

export function withDiff(diff: FileDiff | undefined): { diff?: FileDiff } {
  return diff ? { diff } : {};
}
