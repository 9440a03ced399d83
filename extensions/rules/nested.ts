/**
 * The reminder that fires when a tool first touches a directory this session (the guide's "the same rule
 * applies ... to the reminder that fires when a tool first touches a directory"). The first prompt's block
 * covers every level from the worktree root down to the working directory; a tool call that reads, edits,
 * lists or searches somewhere else in the worktree (a subdirectory, a sibling package) brings that
 * directory's levels in: the same files per level (CLAUDE.md, else AGENTS.md; CLAUDE.local.md;
 * CONTEXT.md), with their imports and bounds, appended once per directory per session to that tool's
 * result. Directories outside the worktree root are never read this way.
 */
import fs from "node:fs";
import path from "node:path";
import { MAX_FILE_CHARS, type InstructionFile } from "./api.js";
import { renderBlock } from "./block.js";
import { checkTarget, expandImports, readBounded, realBound } from "./imports.js";
import { levelInstructions, levels } from "./sources.js";

export interface NestedOptions {
  /** the worktree root */
  root: string;
  cwd: string;
  home: string;
  /** directories already covered this session (the first block's levels are added on first use) */
  reminded: Set<string>;
  /** why the worktree's files are untrusted (they import only project files); absent: trusted */
  untrusted?: string;
}

function dirOf(p: string): string | undefined {
  try {
    return fs.statSync(p).isDirectory() ? p : path.dirname(p);
  } catch {
    const d = path.dirname(p);
    return fs.existsSync(d) ? d : undefined;
  }
}

function inside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The reminder for the directories `touched` reaches for the first time ("" when none adds a file). */
export function nestedReminder(touched: readonly string[], opts: NestedOptions): { block: string; warnings: string[] } {
  const { root, cwd, home, reminded } = opts;
  if (!reminded.size) for (const d of levels(root, cwd)) reminded.add(d);
  const files: InstructionFile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const untrusted = opts.untrusted;
  const bounds = untrusted ? [realBound(root)] : [realBound(root), realBound(home)];
  const id = (f: string) => path.relative(root, f).split(path.sep).join("/");
  for (const p of touched) {
    const dir = dirOf(path.resolve(p));
    if (!dir || !inside(dir, root)) continue;
    for (const level of levels(root, dir)) {
      if (reminded.has(level)) continue;
      reminded.add(level);
      for (const c of levelInstructions(level)) {
        if (c.excluded) continue;
        const checked = checkTarget(c.file, { home, bounds });
        if ("refused" in checked) {
          warnings.push(`${c.file}: not loaded: ${checked.refused}`);
          continue;
        }
        if (seen.has(checked.real)) continue;
        seen.add(checked.real);
        const text = readBounded(checked.real);
        files.push({ kind: "instruction", file: c.file, id: id(c.file), layer: "repo", state: "active", text });
        files.push(...expandImports(c.file, text, { home, bounds, idOf: id, ...(untrusted ? { untrusted } : {}) }, seen, warnings));
      }
    }
  }
  const header = `<system-reminder>\n# Memory for a directory first touched this session (instruction files)`;
  return { block: renderBlock(files, MAX_FILE_CHARS, MAX_FILE_CHARS, header), warnings };
}
