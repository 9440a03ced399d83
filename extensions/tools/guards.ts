/**
 * File guards that live in the tools themselves, independent of permission rules:
 * secret .env files are never read, read-before-write, and stale detection by content hash.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { CREATED_FILE_EXCEPTION_BYTES } from "./api.js";
import { isSecretEnvFile, realPathLoose } from "./paths.js";
import type { ToolsState } from "./state.js";

/**
 * File timestamps come from the kernel's coarse clock, which can lag Date.now() by a tick (a few ms), so a
 * file created right after the first tool call may carry a birth time a little before it.
 */
const CLOCK_SLACK_MS = 20;

export function sha256(buf: Buffer | string): string {
  return crypto.createHash("sha256").update(buf).digest("hex");
}

/** The key a read is remembered under: the real path, so a symlink and its target are one file. */
export function fileKey(p: string): string {
  return realPathLoose(p);
}

/** Refuse a secrets file, also when reached through a symlink with an innocent name. */
export function envRefusal(p: string): string | undefined {
  return isSecretEnvFile(p) || isSecretEnvFile(realPathLoose(p))
    ? `refused: ${p} looks like a secrets file (.env, *.env, *.env.*), which is never read into the model; use .env.example for the shape, or ask the user for the values you need`
    : undefined;
}

export function recordRead(state: ToolsState, p: string, content: Buffer | string): void {
  state.reads.set(fileKey(p), { hash: sha256(content) });
}

/**
 * May a tool modify the existing file at `p` whose current bytes are `current`? Returns the refusal, or
 * undefined when allowed. A missing file is always writable (checked by the caller).
 */
export function writeRefusal(state: ToolsState, p: string, current: Buffer, stat: fs.Stats): string | undefined {
  const rec = state.reads.get(fileKey(p));
  if (rec) {
    if (rec.hash === sha256(current)) return undefined;
    return `refused: ${p}: modified since it was last read; read it again before changing it`;
  }
  if (createdThisSession(state, stat)) return undefined;
  return `refused: ${p}: file exists but has not been read this session; read it first, then write or edit it`;
}

/** The read-before-write exception: a small file whose birth time is at/after the session's first tool call. */
function createdThisSession(state: ToolsState, stat: fs.Stats): boolean {
  if (!(stat.birthtimeMs > 0)) return false; // no birth time on this filesystem: the exception never applies
  if (stat.size >= CREATED_FILE_EXCEPTION_BYTES) return false;
  return stat.birthtimeMs >= state.firstCallAt - CLOCK_SLACK_MS;
}
