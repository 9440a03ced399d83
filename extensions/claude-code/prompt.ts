/**
 * What one request sends to claude. Claude Code keeps its own conversation, so a resumed session gets
 * only the rows after the last answer (the new prompt, a hook's context, an engine note). A cold start
 * (the tideline cut the window, or claude has never seen this window) gets the ledger page, the
 * retained turns' text (tool outputs are not re-sent: the page's links carry them) and then the new rows.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ModelRequest, NoteRow, Row } from "../engine/api.js";

/** claude's --session-id for one oceancode session's window starting at `firstSeq`: stable across processes. */
export function claudeSessionId(sessionId: string, firstSeq: number): string {
  const h = createHash("sha256").update(`oceancode:${sessionId}:${firstSeq}`).digest("hex");
  // RFC 4122 layout, version 5 (name-based), variant 10
  const v = (parseInt(h[16]!, 16) & 0x3) | 0x8;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${v.toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Whether claude already holds a conversation with this id (its transcript under <config>/projects/). */
export function claudeHasSession(configDir: string, id: string): boolean {
  const root = path.join(configDir, "projects");
  let dirs: string[];
  try {
    dirs = fs.readdirSync(root);
  } catch {
    return false;
  }
  return dirs.some((d) => fs.existsSync(path.join(root, d, `${id}.jsonl`)));
}

/** The window's first real row (the tideline's preface note has seq 0). */
export function firstSeqOf(rows: readonly Row[]): number {
  return rows.find((r) => !isPreface(r))?.seq ?? 0;
}

/** The engine's preface note (the tideline's pointer line): seq 0. */
function isPreface(r: Row): r is NoteRow {
  return r.seq === 0 && r.role === "note";
}

/** The tideline's pointer line when the window was cut. */
export function prefaceOf(rows: readonly Row[]): string | undefined {
  const r = rows[0];
  return r && isPreface(r) ? r.text : undefined;
}

function rowText(r: Row): string | undefined {
  switch (r.role) {
    case "user":
      return [r.text, ...(r.context ?? [])].filter(Boolean).join("\n\n");
    case "note":
      return r.text;
    case "assistant":
      return r.text || undefined;
    default:
      return undefined;
  }
}

/** Rows after the last assistant row: what claude has not seen yet. */
export function newRows(rows: readonly Row[]): Row[] {
  let i = rows.length;
  while (i > 0 && rows[i - 1]!.role !== "assistant") i--;
  return rows.slice(i).filter((r) => !isPreface(r));
}

export function resumePrompt(req: ModelRequest): string {
  return newRows(req.rows).map(rowText).filter((t): t is string => !!t).join("\n\n");
}

/**
 * The cold start's prompt: page, pointer, retained turns' text, then the new rows. The retained turns are
 * the newest of the window's earlier rows that fit a quarter of the line (about 4 characters a token).
 */
export function coldPrompt(req: ModelRequest, page: string | undefined, line?: number): string {
  const fresh = newRows(req.rows);
  const budget = (line ?? 200_000) * 4 * 0.25;
  const all = req.rows.slice(0, req.rows.length - fresh.length).filter((r) => !isPreface(r) && r.role !== "tool");
  let used = 0;
  let from = all.length;
  while (from > 0 && used + (rowText(all[from - 1]!)?.length ?? 0) <= budget) used += rowText(all[--from]!)?.length ?? 0;
  const earlier = all.slice(from);
  const now = resumePrompt(req);
  if (earlier.length === 0 && !page) return now;
  const parts: string[] = [];
  const pointer = prefaceOf(req.rows);
  if (page) parts.push(`<session-page>\n${page.trim()}\n</session-page>`);
  if (pointer) parts.push(pointer);
  if (earlier.length) {
    const lines = earlier
      .map((r) => {
        const t = rowText(r);
        return t ? `${r.role === "assistant" ? "Assistant" : r.role === "user" ? "User" : "Note"}: ${t}` : undefined;
      })
      .filter((t): t is string => !!t);
    parts.push(`<earlier-turns>\n${lines.join("\n\n")}\n</earlier-turns>`);
  }
  parts.push(now);
  return parts.join("\n\n");
}
