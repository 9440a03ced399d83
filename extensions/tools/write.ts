/** `write {file_path, content}`: create or overwrite a file (guarded by read-before-write and stale detection). */
import fs from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { reqString, toolPath, ToolInputError } from "./common.js";
import { recordRead, writeRefusal } from "./guards.js";
import { toolsState } from "./state.js";
import { pathMapping } from "./subject.js";
import { fileDiff, readForPreview } from "./diff.js";
import type { FileDiff, QuestionPreview } from "../engine/api.js";

/** The permission question's diff: the new content against the file (or its first lines when new). */
function writePreview(opts: ToolsOptions, input: Record<string, unknown>, cwd: string): QuestionPreview | undefined {
  const raw = input.file_path;
  const content = input.content;
  if (typeof raw !== "string" || !raw || typeof content !== "string") return undefined;
  const file = toolPath(opts, { cwd }, raw);
  const before = readForPreview(opts.project, file);
  // a file it may not read for this: only what would be written (as if new)
  const diff = fileDiff(file, before === "outside" ? undefined : before, content);
  if (diff && before === "outside") delete diff.created;
  return diff ? { diff } : undefined;
}

/** Stat a target; undefined when it does not exist. */
export function statTarget(tool: string, file: string): fs.Stats | undefined {
  try {
    const st = fs.statSync(file);
    if (st.isDirectory()) throw ToolInputError({ message: `${tool}: ${file} is a directory, not a file` });
    return st;
  } catch (e) {
    if (ToolInputError.is(e)) throw e;
    return undefined;
  }
}

export function writeTool(opts: ToolsOptions): ToolDefinition {
  return {
    name: "write",
    kind: "edit",
    claudeName: "Write",
    description:
      "Write a whole file (creates parent directories). An existing file must have been read this session and be unchanged on disk since; prefer edit for changes to existing files.",
    inputSchema: {
      type: "object",
      properties: {
        file_path: { type: "string", description: "the file to write (absolute, relative to the working directory, or @ref/path)" },
        content: { type: "string", description: "the full new content" },
      },
      required: ["file_path", "content"],
      additionalProperties: false,
    },
    ...pathMapping(opts, "file_path"),
    preview: (input, cwd) => writePreview(opts, input, cwd),
    async run(input, ctx) {
      const file = toolPath(opts, ctx, reqString("write", input, "file_path", "the file to write"));
      const content = input.content;
      if (typeof content !== "string") throw ToolInputError({ message: "write: 'content' is required and must be a string (the full file content)" });
      const state = toolsState(ctx);
      const st = statTarget("write", file);
      let before: string | undefined;
      if (st) {
        const buf = fs.readFileSync(file);
        const refusal = writeRefusal(state, file, buf, st);
        if (refusal) return { content: refusal, isError: true };
        before = buf.toString("utf8");
      }
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      recordRead(state, file, content);
      const bytes = Buffer.byteLength(content);
      return { content: st ? `Wrote ${bytes} bytes to ${file}` : `Created ${file} (${bytes} bytes)`, metadata: { path: file, bytes, created: !st }, ...diffOf(fileDiff(file, before, content)) };
    },
  };
}

function diffOf(diff: FileDiff | undefined): { diff?: FileDiff } {
  return diff ? { diff } : {};
}
