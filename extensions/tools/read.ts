/** `read {file_path, offset?, limit?}`: numbered lines (cat -n style); binary files, directories and .env refused. */
import fs from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { reqString, optNumber, toolPath, ToolInputError } from "./common.js";
import { envRefusal, recordRead } from "./guards.js";
import { toolsState } from "./state.js";
import { pathMapping } from "./subject.js";

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;
/** Bigger files are refused whole; grep or bash head/tail read slices of them. */
export const READ_MAX_FILE_BYTES = 32 * 1024 * 1024;

/** Images the read tool hands over as images (the types the Messages API takes), up to this size. */
const IMAGE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

export function numberLines(text: string, offset: number, limit: number): { body: string; total: number; shown: number } {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop(); // a trailing newline ends the last line
  const start = offset - 1;
  const slice = lines.slice(start, start + limit);
  const body = slice
    .map((l, i) => {
      const line = l.endsWith("\r") ? l.slice(0, -1) : l;
      const cut = line.length > READ_MAX_LINE_CHARS ? `${line.slice(0, READ_MAX_LINE_CHARS)}… [line cut: ${line.length} chars]` : line;
      return `${String(start + i + 1).padStart(6)}\t${cut}`;
    })
    .join("\n");
  return { body, total: lines.length, shown: slice.length };
}

export function readTool(opts: ToolsOptions): ToolDefinition {
  return {
    name: "read",
    kind: "read",
    claudeName: "Read",
    description:
      "Read a text file. Returns numbered lines (cat -n style). Use offset (1-based line) and limit (default 2000 lines) for long files. Refuses directories (use ls), binary files and .env secrets files. A file must be read before write or edit may change it.",
    inputSchema: {
      type: "object",
      properties: {
        file_path: { type: "string", description: "the file to read (absolute, relative to the working directory, or @ref/path)" },
        offset: { type: "integer", minimum: 1, description: "line number to start at (1-based)" },
        limit: { type: "integer", minimum: 1, description: "how many lines to read (default 2000)" },
      },
      required: ["file_path"],
      additionalProperties: false,
    },
    ...pathMapping(opts, "file_path"),
    async run(input, ctx) {
      const given = reqString("read", input, "file_path", "the file to read");
      const offset = optNumber("read", input, "offset", 1) ?? 1;
      const limit = optNumber("read", input, "limit", 1) ?? READ_DEFAULT_LIMIT;
      const file = toolPath(opts, ctx, given);
      const env = envRefusal(file);
      if (env) return { content: env, isError: true };
      let st: fs.Stats;
      try {
        st = fs.statSync(file);
      } catch {
        throw ToolInputError({ message: `read: ${file} does not exist; check the path (ls or glob can find it)` });
      }
      if (st.isDirectory()) throw ToolInputError({ message: `read: ${file} is a directory; use ls to list it` });
      if (st.size > READ_MAX_FILE_BYTES) {
        throw ToolInputError({ message: `read: ${file} is ${Math.round(st.size / 1048576)} MB, too large to read whole; use grep, or bash with head/tail/sed -n to read a slice` });
      }
      const buf = fs.readFileSync(file);
      // an image is handed over as an image (providers that take images send it; the text names it)
      const mediaType = IMAGE_TYPES[path.extname(file).toLowerCase()];
      if (mediaType && buf.length <= READ_MAX_IMAGE_BYTES) {
        return { content: `(image ${file}, ${mediaType}, ${buf.length} bytes)`, images: [{ mediaType, data: buf.toString("base64") }], metadata: { path: file } };
      }
      if (looksBinary(buf)) return { content: `read: ${file} is a binary file (${st.size} bytes); it cannot be shown as text`, isError: true };
      recordRead(toolsState(ctx), file, buf);
      if (buf.length === 0) return { content: `(${file} is empty)`, metadata: { path: file, lines: 0 } };
      const { body, total, shown } = numberLines(buf.toString("utf8"), offset, limit);
      if (shown === 0) return { content: `(${file} has ${total} lines; offset ${offset} is past the end)`, metadata: { path: file, lines: total } };
      const last = offset + shown - 1;
      const more = last < total ? `\n\n(showing lines ${offset}-${last} of ${total}; use offset ${last + 1} to read more)` : "";
      return { content: `${body}${more}`, metadata: { path: file, lines: total } };
    },
  };
}
