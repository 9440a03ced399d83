/**
 * A prompt's attachments over HTTP (POST /session/:id/prompt `attachments`), turned into what the engine
 * takes (PromptOptions.context and .images), the way the pager turns an `@file` mention:
 * - `{type: "image", mediaType, data}`: an image the client holds (base64), sent after the text;
 * - `{type: "file", path, content}`: a file the client holds (an upload), attached as context text with its
 *   name, capped at FILE_CONTEXT_MAX_CHARS (the cut is said);
 * - `{type: "file", path}`: a file or folder of the project, read through the engine's runTool (the read or
 *   ls tool, with every guard a model's read meets: permission rules, the never-read secrets, the sandbox);
 *   a path outside the project is refused. An image file comes back as an image.
 */
import fs from "node:fs";
import path from "node:path";
import type { EngineService, Session } from "../engine/api.js";
import { type JsonSchema } from "./api.js";
import { HttpError } from "./kit/shared.js";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/** the Messages API's limit per image */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENTS = 20;
/** an uploaded file's text as context, at most (a longer one is cut, and the cut said) */
export const FILE_CONTEXT_MAX_CHARS = 256 * 1024;
/** the prompt route's body limit: room for MAX_ATTACHMENTS images in base64 would be too much; this many bytes */
export const PROMPT_BODY_LIMIT = 32 * 1024 * 1024;

export type Attachment = { type: "image"; mediaType: (typeof IMAGE_TYPES)[number]; data: string; name?: string } | { type: "file"; path: string; content?: string };

export interface Attached {
  context: string[];
  images: Array<{ mediaType: string; data: string }>;
}

export const AttachmentSchema: JsonSchema = {
  oneOf: [
    {
      type: "object",
      required: ["type", "mediaType", "data"],
      additionalProperties: false,
      properties: {
        type: { const: "image" },
        mediaType: { type: "string", enum: [...IMAGE_TYPES] },
        data: { type: "string", minLength: 1, pattern: "^[A-Za-z0-9+/]+={0,2}$", description: `base64, at most ${IMAGE_MAX_BYTES} bytes decoded` },
        name: { type: "string", maxLength: 300 },
      },
    },
    {
      type: "object",
      required: ["type", "path"],
      additionalProperties: false,
      properties: {
        type: { const: "file" },
        path: { type: "string", minLength: 1, maxLength: 4096, description: "with content: the file's name as shown to the model; without: a file or folder of the project, read by the server" },
        content: { type: "string", description: `the file's text (an upload); cut at ${FILE_CONTEXT_MAX_CHARS} characters` },
      },
    },
  ],
};

/** A name safe inside `<file path="...">`: one line, no quotes or angle brackets. */
function shownName(p: string): string {
  return p.replace(/[\u0000-\u001f\u007f"<>]/g, "_").slice(0, 300);
}

function decodedBytes(b64: string): number {
  return Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
}

/** The project file a path names, when it exists inside the project (symlinks resolved on both sides). */
function insideProject(project: string, rel: string): boolean {
  try {
    const real = fs.realpathSync(path.resolve(project, rel));
    const r = path.relative(fs.realpathSync(project), real);
    return !(r.startsWith("..") || path.isAbsolute(r));
  } catch {
    return false;
  }
}

/** Check and resolve every attachment; the first that cannot be attached is a 400 naming it (nothing is queued). */
export async function resolveAttachments(list: readonly Attachment[], session: Session, engine: EngineService, signal: AbortSignal): Promise<Attached> {
  const out: Attached = { context: [], images: [] };
  if (list.length > MAX_ATTACHMENTS) throw new HttpError(400, "too_many_attachments", `at most ${MAX_ATTACHMENTS} attachments per prompt (got ${list.length})`);
  for (const [i, a] of list.entries()) {
    const where = `attachments/${i}`;
    if (a.type === "image") {
      const bytes = decodedBytes(a.data);
      if (bytes > IMAGE_MAX_BYTES) throw new HttpError(400, "attachment_too_large", `${where}: the image is ${bytes} bytes; at most ${IMAGE_MAX_BYTES}`);
      out.images.push({ mediaType: a.mediaType, data: a.data });
      continue;
    }
    const name = shownName(a.path);
    if (a.content !== undefined) {
      const cut = a.content.length > FILE_CONTEXT_MAX_CHARS;
      const text = cut ? a.content.slice(0, FILE_CONTEXT_MAX_CHARS) : a.content;
      const note = cut ? ` (cut at ${FILE_CONTEXT_MAX_CHARS} of its ${a.content.length} characters)` : "";
      out.context.push(`The user attached the file ${name}${note}; its content follows.\n<file path="${name}">\n${text}\n</file>`);
      continue;
    }
    if (!insideProject(session.info.cwd, a.path)) throw new HttpError(400, "attachment_refused", `${where}: '${name}' is not a file or folder inside the session's project`);
    const dir = fs.statSync(path.resolve(session.info.cwd, a.path)).isDirectory();
    const r = await engine.runTool(session, dir ? { name: "ls", input: { path: a.path } } : { name: "read", input: { file_path: a.path } }, { signal });
    if (r.isError) throw new HttpError(400, "attachment_refused", `${where}: '${name}': ${r.content.split("\n")[0]?.slice(0, 500)}`);
    const what = dir ? "the folder's listing (ls)" : r.images?.length ? "an image" : "its content (read, numbered lines)";
    out.context.push(`The user attached ${name}; ${what} follows.\n<file path="${name}">\n${r.content}\n</file>`);
    for (const img of r.images ?? []) out.images.push(img);
  }
  return out;
}
