/**
 * `@path` in a message: each file or folder it names inside the project is attached to the prompt as
 * context, the way Claude Code inlines a mention. The reading is the read tool's (a folder: ls), run
 * through the engine's own authorize → execute path (EngineService.runTool), so every guard a model's
 * read meets applies: permission rules and modes, the never-read secrets files, the sandbox. A path
 * outside the project is not attached at all.
 */
import fs from "node:fs";
import path from "node:path";
import type { ToolResult, UserToolCall } from "../../extensions/engine/api.js";

/** `@` at a word start, then a path (no spaces; a trailing sentence mark is not part of it). */
const MENTION = /(^|\s)@((?:[^\s@]|\\ )+)/g;

/** The mentioned paths, in order, once each. */
export function mentionsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const p = m[2]!.replace(/[.,;:!?)]+$/, "");
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** The open `@query` the cursor is in (for the picker), or undefined. */
export function mentionAt(value: string, cursor: number): { start: number; query: string } | undefined {
  const before = value.slice(0, cursor);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return undefined;
  return { start: cursor - m[2]!.length - 1, query: m[2]! };
}

/** Replace the open `@query` with the picked path (a file gets a space after it; a folder keeps going). */
export function completeMention(value: string, cursor: number, picked: string): { value: string; cursor: number } | undefined {
  const at = mentionAt(value, cursor);
  if (!at) return undefined;
  const insert = `@${picked}${picked.endsWith("/") ? "" : " "}`;
  const next = value.slice(0, at.start) + insert + value.slice(cursor).replace(/^\S*/, "");
  return { value: next, cursor: at.start + insert.length };
}

export interface Attachments {
  context: string[];
  images: Array<{ mediaType: string; data: string }>;
  /** what could not be attached, for notices */
  problems: string[];
}

/** Where a mention points, when it is inside the project and exists (symlinks resolved both sides). */
export function insideProject(project: string, rel: string): { abs: string; dir: boolean } | undefined {
  const abs = path.resolve(project, rel);
  let real: string;
  let root: string;
  try {
    real = fs.realpathSync(abs);
    root = fs.realpathSync(project);
  } catch {
    return undefined;
  }
  const r = path.relative(root, real);
  if (r.startsWith("..") || path.isAbsolute(r)) return undefined;
  return { abs, dir: fs.statSync(real).isDirectory() };
}

/** Read every mention through `run` (the engine's runTool); what is refused is said, never attached. */
export async function attachMentions(text: string, project: string, run: (call: UserToolCall) => Promise<ToolResult>): Promise<Attachments> {
  const out: Attachments = { context: [], images: [], problems: [] };
  for (const rel of mentionsIn(text)) {
    const clean = rel.replace(/\\ /g, " ");
    const hit = insideProject(project, clean);
    if (!hit) {
      if (fs.existsSync(path.resolve(project, clean))) out.problems.push(`@${clean}: outside the project; not attached`);
      continue; // an @ that names no file (an e-mail address, a handle) is just text
    }
    const call: UserToolCall = hit.dir ? { name: "ls", input: { path: clean } } : { name: "read", input: { file_path: clean } };
    const r = await run(call);
    if (r.isError) {
      out.problems.push(`@${clean}: ${r.content.split("\n")[0]}; not attached`);
      continue;
    }
    const what = hit.dir ? "the folder's listing (ls)" : r.images?.length ? "an image" : "its content (read, numbered lines)";
    out.context.push(`The user mentioned @${clean}; ${what} follows.\n<file path="${clean}">\n${r.content}\n</file>`);
    for (const img of r.images ?? []) out.images.push(img);
  }
  return out;
}
