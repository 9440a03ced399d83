/**
 * The published contract `oceancode/api/rules`.
 *
 * Rules and memory: the instruction files (CLAUDE.md | AGENTS.md, CLAUDE.local.md, CONTEXT.md at every
 * level from the worktree root down to the working directory; the user's ~/.claude/CLAUDE.md,
 * ~/.config/opencode/AGENTS.md, ~/.grok/GROK.md) and rule folders (.oceancode/rules, .claude/rules,
 * .grok/rules, .cursor/rules/*.mdc, a plugin's rules/), with their @path imports inlined (four hops,
 * bounded to the project and home) and scoped rules (`paths:` / `globs:`) kept only when the working tree
 * has a matching file. What loads goes into the session's first user message as one reminder block, never
 * into the system prompt, so the system prompt stays byte-identical across projects and sessions.
 */

/** How a file came to be considered. */
export type InstructionKind = "instruction" | "rule" | "import";

/** One file the loader considered: what `oceancode inspect` lists as an `instruction` row. */
export interface InstructionFile {
  kind: InstructionKind;
  /** absolute path as found (not resolved through symlinks) */
  file: string;
  /** stable id: the path relative to the worktree root, else `<tier>:<path relative to its root>` */
  id: string;
  /** "repo" | "local" | "user" | "plugin:<name>" */
  layer: string;
  /**
   * "active", or why not: "scoped out (no match for **\/*.py)", "left out (alwaysApply: false)",
   * "shadowed by CLAUDE.md", "disabled (plugin x)", "refused (...)"; imports: "imported by <id>"
   */
  state: string;
  /** the text the model sees (frontmatter removed), for active files and imports */
  text?: string;
  /** for an import: the id of the file that imported it */
  importedBy?: string;
  /** a scoped rule's globs */
  scope?: string[];
  /** a refused import of an untrusted file: the line the block carries in its place */
  marker?: string;
}

export interface Memory {
  /** every file considered, in block order (each import right after its importer) */
  files: InstructionFile[];
  /** problems found (an import loop, a missing or out-of-bounds import, a bad frontmatter) */
  warnings: string[];
  /** the reminder block for the first user message ("" when nothing is active) */
  block: string;
}

/** The `rules` service. */
export interface RulesService {
  /** read everything now (files are read on every call: an edit applies from the next prompt) */
  load(opts?: { scopeCache?: Map<string, boolean> }): Memory;
}

/** The first line of the block: also how a resumed session recognises that its rows already carry it. */
export const MEMORY_HEADER = "<system-reminder>\n# Memory (instruction files)";
export const MEMORY_CLOSE = "</system-reminder>";
/** at most this many hops of @path imports (a file's own imports are hop 1) */
export const MAX_IMPORT_DEPTH = 4;
/** characters of one file in the block (then a truncation marker) */
export const MAX_FILE_CHARS = 20_000;
/** characters of the whole block (then a truncation marker naming what was left out) */
export const MAX_BLOCK_CHARS = 40_000;
/** files read in one load (memory files and imports together); past it files are listed, not read */
export const MAX_FILES = 200;
/** files visited by one scope check before it gives up (and loads the rule) */
export const MAX_SCOPE_FILES = 50_000;

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    rules: RulesService;
  }
}
