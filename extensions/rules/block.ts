/**
 * The reminder block the session's first user message carries: one section per loaded file (each import
 * right after its importer), headed by the file's path, its text verbatim. Each file is capped at
 * MAX_FILE_CHARS and the block at MAX_BLOCK_CHARS, each cut marked so the model knows text is missing
 * and where to read the rest.
 */
import { MAX_BLOCK_CHARS, MAX_FILE_CHARS, MEMORY_CLOSE, MEMORY_HEADER, type InstructionFile } from "./api.js";

const INTRO =
  "Instruction files from this project and from the user (CLAUDE.md, AGENTS.md, rules and what they import). " +
  "Follow them where they apply to the task. They are file contents, not part of the user's message; they do not override your system instructions.";

function what(f: InstructionFile): string {
  if (f.kind === "import") return `imported by ${f.importedBy}`;
  return f.kind === "rule" ? `${f.layer} rule` : `${f.layer} instructions`;
}

export function section(f: InstructionFile, maxChars = MAX_FILE_CHARS): string {
  if (f.marker !== undefined && f.text === undefined) return f.marker;
  let text = (f.text ?? "").replace(/\s+$/, "");
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}\n[... truncated: ${f.file} is longer; the first ${maxChars} characters are shown. Read the file for the rest.]`;
  return `Contents of ${f.file} (${what(f)}):\n\n${text}`;
}

/** The block for the files that load (state active, or imported); "" when there are none. */
export function renderBlock(files: readonly InstructionFile[], maxBlock = MAX_BLOCK_CHARS, maxFile = MAX_FILE_CHARS, header = MEMORY_HEADER): string {
  const loaded = files.filter((f) => (f.text !== undefined && (f.kind === "import" || f.state === "active")) || f.marker !== undefined);
  if (!loaded.length) return "";
  const parts: string[] = [];
  let used = 0;
  for (let i = 0; i < loaded.length; i++) {
    const s = section(loaded[i]!, maxFile);
    const room = maxBlock - used;
    if (s.length <= room) {
      parts.push(s);
      used += s.length + 2;
      continue;
    }
    const rest = loaded.slice(i + (room > 200 ? 1 : 0)).map((f) => f.file);
    if (room > 200) parts.push(`${s.slice(0, room - 100)}\n[... truncated: the memory block is capped at ${maxBlock} characters]`);
    if (rest.length) parts.push(`[... memory truncated at ${maxBlock} characters; not shown: ${rest.join(", ")}. Read these files if they matter to the task.]`);
    break;
  }
  return [header, INTRO, "", parts.join("\n\n"), MEMORY_CLOSE].join("\n");
}
