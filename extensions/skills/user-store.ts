/**
 * ~/.oceancode/skill-state.json, the user tier of the enable fold: `{"disabled": ["<tier>.<eco>:<name>", ...]}`.
 * OceanCode's own file (never ~/.claude). Tolerant reads (missing or corrupt = nothing disabled, one
 * warning), atomic writes (temp file + rename); a corrupt file is never overwritten.
 */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../kernel/api.js";

export const STATE_FILE_INVALID = "OC_ERR_SKILL_STATE_INVALID" as const;

type ReadResult = { ok: true; disabled: string[]; rest: Record<string, unknown> } | { ok: false; error: string };

export class UserSkillStore {
  private warned = false;
  constructor(
    readonly file: string,
    private readonly warn: (msg: string) => void,
  ) {}

  private read(): ReadResult {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, disabled: [], rest: {} };
      return { ok: false, error: (e as Error).message };
    }
    if (!text.trim()) return { ok: true, disabled: [], rest: {} };
    try {
      const v = JSON.parse(text) as unknown;
      if (!v || typeof v !== "object" || Array.isArray(v)) return { ok: false, error: 'the top level must be an object like {"disabled": []}' };
      const { disabled, ...rest } = v as Record<string, unknown>;
      return { ok: true, disabled: Array.isArray(disabled) ? disabled.filter((x): x is string => typeof x === "string") : [], rest };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }

  /** The user-tier disables (stable ids, or legacy bare names). */
  disabled(): string[] {
    const r = this.read();
    if (r.ok) return r.disabled;
    if (!this.warned) this.warn(`${this.file} is corrupt (${r.error}); no skill is disabled by it — fix or delete it`);
    this.warned = true;
    return [];
  }

  /** Throws (code STATE_FILE_INVALID) when the file is corrupt, so a caller can check before writing anything. */
  assertWritable(): void {
    this.readForWrite();
  }

  /** Replace the disables; keys other than `disabled` are kept. Throws (code STATE_FILE_INVALID) on a corrupt file. */
  write(disabled: readonly string[]): void {
    const rest = this.readForWrite();
    writeFileAtomic(this.file, `${JSON.stringify({ ...rest, disabled: [...new Set(disabled)] }, null, 2)}\n`);
  }

  private readForWrite(): Record<string, unknown> {
    const r = this.read();
    if (!r.ok) throw Object.assign(new Error(`${this.file} is not a valid skill-state file (${r.error}): fix it or delete it; nothing was changed`), { code: STATE_FILE_INVALID });
    return r.rest;
  }
}


/** A cheap change stamp for a file: inode, size and mtime (a rename changes the inode even within one ms). */
export function stampOf(file: string | undefined): string {
  if (!file) return "";
  const st = fs.statSync(file, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "-";
}
