/**
 * `#text` in the pager: the note is appended, as one `- text` line, to a memory file the user picks with
 * one key. The files are the ones the rules extension loads into the system prompt (from the next prompt):
 * the project's CLAUDE.md (else an existing AGENTS.md: never both), the personal CLAUDE.local.md, and
 * the user's ~/.claude/CLAUDE.md.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface MemoryTarget {
  key: string;
  label: string;
  file: string;
}

export function memoryTargets(project: string, home = os.homedir()): MemoryTarget[] {
  const claude = path.join(project, "CLAUDE.md");
  const agents = path.join(project, "AGENTS.md");
  const primary = !fs.existsSync(claude) && fs.existsSync(agents) ? agents : claude;
  return [
    { key: "1", label: `project memory (${path.basename(primary)}, shared with the repo)`, file: primary },
    { key: "2", label: "local project memory (CLAUDE.local.md, yours only)", file: path.join(project, "CLAUDE.local.md") },
    { key: "3", label: "user memory (~/.claude/CLAUDE.md, every project)", file: path.join(home, ".claude", "CLAUDE.md") },
  ];
}

/**
 * Append `- note` to `file` (made, with its folder, when missing). A symlink is refused: the note would
 * land wherever the link points. Returns the refusal, or undefined once written.
 */
export function appendMemory(file: string, note: string): string | undefined {
  const line = `- ${note.replace(/\s*\n\s*/g, " ").trim()}\n`;
  let before = "";
  try {
    const st = fs.lstatSync(file);
    if (st.isSymbolicLink()) return `${file} is a symbolic link; not written (edit the file it points to yourself)`;
    if (!st.isFile()) return `${file} is not a regular file; not written`;
    before = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") return `${file}: ${(e as Error).message}`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
  }
  const sep = before && !before.endsWith("\n") ? "\n" : "";
  fs.appendFileSync(file, sep + line);
  return undefined;
}
