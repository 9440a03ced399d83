/**
 * Which files are candidates, in block order (widest first, so the nearest file reads last):
 *   1. user:    per folder in walk order (~/.oceancode, ~/.claude, ~/.config/opencode, ~/.grok) its memory
 *               file (CLAUDE.md, AGENTS.md, GROK.md), then its rules/
 *   2. plugins: each plugin's rules/ (a disabled plugin's files are listed, never loaded)
 *   3. every level from the worktree root (git toplevel, else the project) down to the working directory:
 *      CLAUDE.md, else AGENTS.md (never both), CLAUDE.local.md, CONTEXT.md, then that level's rule
 *      folders (.oceancode/rules, .claude/rules, .grok/GROK.md, .grok/rules, .cursor/rules/*.mdc), in the
 *      walk's ecosystem order
 *   4. local:   an untracked .oceancode/rules (the local tier) last
 * The tier roots (user, plugin, the working directory's .claude/.grok/.oceancode) come from the discovery
 * walk through the reader "rules", so `compat` decides which ecosystems exist; folders above the working
 * directory and Cursor's .cursor/rules are read here.
 */
import fs from "node:fs";
import path from "node:path";
import { pluginStateIn, type Discovered, type PluginStoreFile, type Reader, type Root, type WalkItem } from "../../kernel/api.js";
import { MAX_FILES } from "./api.js";

export const READER_ID = "rules";
const ECOSYSTEMS = ["oceancode", "claude", "opencode", "grok"] as const;
/** an ecosystem's own memory file in its folder, at the user tier (and the repo tier for Grok) */
const FOLDER_MEMORY: Record<string, { file: string; repo: boolean }> = {
  claude: { file: "CLAUDE.md", repo: false },
  opencode: { file: "AGENTS.md", repo: false },
  grok: { file: "GROK.md", repo: true },
};
const RULE_ECOSYSTEMS = new Set(["oceancode", "claude", "grok"]);
const MAX_DEPTH = 4;

export interface Candidate {
  kind: "instruction" | "rule";
  file: string;
  /** "user" | "repo" | "local" | "plugin:<name>" */
  layer: string;
  /** a Cursor .mdc (alwaysApply means something) */
  cursor?: boolean;
  /** why it is listed but not loaded (shadowed, disabled plugin) */
  excluded?: string;
  /** an extra import bound (a plugin's own folder) */
  bound?: string;
}

export interface RuleItem extends WalkItem, Candidate {}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * `*.md` (or `.mdc`) files under `dir`, sorted, a few levels deep, dot-folders skipped, at most MAX_FILES.
 * A symlinked file is listed (the loader checks where it points); a symlinked directory is not entered,
 * so a checkout's `rules/x -> /` cannot make the listing walk the disk.
 */
export function ruleFiles(dir: string, ext: ".md" | ".mdc", depth = 0): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
  const files: string[] = [];
  const dirs: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.name.endsWith(ext) && isFile(p)) files.push(p);
    else if (depth < MAX_DEPTH && e.isDirectory()) dirs.push(p);
  }
  for (const d of dirs) {
    if (files.length >= MAX_FILES) break;
    files.push(...ruleFiles(d, ext, depth + 1));
  }
  return files.slice(0, MAX_FILES);
}

function layerOf(root: Pick<Root, "tier" | "plugin">): string {
  return root.plugin ? `plugin:${root.plugin.name}` : root.tier;
}

/** One root's files: its ecosystem's memory file, then rules/. */
export function readRoot(root: Pick<Root, "tier" | "ecosystem" | "dir" | "plugin">): RuleItem[] {
  if (root.tier === "bundled") return [];
  const layer = layerOf(root);
  const out: RuleItem[] = [];
  const excluded = root.plugin && !root.plugin.enabled ? `disabled (plugin ${root.plugin.name})` : undefined;
  const add = (kind: Candidate["kind"], file: string) =>
    out.push({ name: file, kind, file, layer, ...(excluded ? { excluded } : {}), ...(root.plugin ? { bound: root.dir } : {}) });
  const mem = FOLDER_MEMORY[root.ecosystem];
  if (!root.plugin && mem && (root.tier === "user" || mem.repo) && isFile(path.join(root.dir, mem.file))) add("instruction", path.join(root.dir, mem.file));
  if (root.plugin || RULE_ECOSYSTEMS.has(root.ecosystem)) for (const f of ruleFiles(path.join(root.dir, "rules"), ".md")) add("rule", f);
  return out;
}

export const rulesReader: Reader<RuleItem> = { id: READER_ID, ecosystems: ECOSYSTEMS, read: readRoot };

/** The git toplevel above (or at) `dir`, else `dir` itself. */
export function worktreeRoot(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, ".git"))) return d;
    if (path.dirname(d) === d) return path.resolve(dir);
  }
}

/** The directories from `root` down to `dir` (both included; just `dir` when it is not under `root`). */
export function levels(root: string, dir: string): string[] {
  const rel = path.relative(root, dir);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return [dir];
  const out = [root];
  for (const part of rel.split(path.sep).filter(Boolean)) out.push(path.join(out[out.length - 1]!, part));
  return out;
}

/** One level's instruction files: the primary (CLAUDE.md, else AGENTS.md), CLAUDE.local.md, CONTEXT.md. */
export function levelInstructions(dir: string): Candidate[] {
  const out: Candidate[] = [];
  const claude = path.join(dir, "CLAUDE.md");
  const agents = path.join(dir, "AGENTS.md");
  if (isFile(claude)) out.push({ kind: "instruction", file: claude, layer: "repo" });
  if (isFile(agents)) out.push({ kind: "instruction", file: agents, layer: "repo", ...(isFile(claude) ? { excluded: "shadowed by CLAUDE.md" } : {}) });
  for (const name of ["CLAUDE.local.md", "CONTEXT.md"]) if (isFile(path.join(dir, name))) out.push({ kind: "instruction", file: path.join(dir, name), layer: "repo" });
  return out;
}

/** A level's rule folders that the walk does not cover (levels above the working directory). */
function levelFolders(dir: string): Candidate[] {
  const out: Candidate[] = [];
  for (const eco of [".oceancode", ".claude"]) for (const f of ruleFiles(path.join(dir, eco, "rules"), ".md")) out.push({ kind: "rule", file: f, layer: "repo" });
  if (isFile(path.join(dir, ".grok", "GROK.md"))) out.push({ kind: "instruction", file: path.join(dir, ".grok", "GROK.md"), layer: "repo" });
  for (const f of ruleFiles(path.join(dir, ".grok", "rules"), ".md")) out.push({ kind: "rule", file: f, layer: "repo" });
  return out;
}

function cursorRules(dir: string): Candidate[] {
  return ruleFiles(path.join(dir, ".cursor", "rules"), ".mdc").map((f) => ({ kind: "rule", file: f, layer: "repo", cursor: true }));
}

/** Every candidate in block order; `walked` is the reader's output over the walk's roots. */
export function candidates(project: string, walked: Array<Pick<Discovered<RuleItem>, "item" | "root">>): { root: string; list: Candidate[] } {
  const root = worktreeRoot(project);
  const cwd = path.resolve(project);
  const byTier = (tier: Root["tier"]) => walked.filter((w) => w.root.tier === tier).map((w) => w.item);
  const list: Candidate[] = [...byTier("user"), ...byTier("plugin")];
  for (const dir of levels(root, cwd)) {
    list.push(...levelInstructions(dir));
    // the working directory's own .claude/.grok/.oceancode are the walk's repo roots
    list.push(...(dir === cwd ? byTier("repo") : levelFolders(dir)));
    list.push(...cursorRules(dir));
  }
  list.push(...byTier("local"));
  return { root, list };
}

/**
 * The walk's rule items with the switches as they are now: the walk caches its roots per process, so a
 * plugin's enable state is re-read from installed.json (`store`, the walk's own rule), and while the
 * project's master switch is off every plugin's rules are left out. Instruction files (CLAUDE.md and the
 * like, at any tier) and the user's, the repo's and the local rule folders are not capabilities: they stay.
 */
export function liveRuleItems<W extends Pick<Discovered<RuleItem>, "item" | "root">>(walked: W[], store: PluginStoreFile | undefined, everythingOff: boolean): W[] {
  return walked.map((w) => {
    const p = w.root.plugin;
    if (!p) return w;
    const { excluded: _was, ...item } = w.item;
    let excluded: string | undefined;
    if (everythingOff) excluded = "everything off";
    else if (!pluginStateIn(store, p, { enabled: p.enabled, trusted: p.trusted }).enabled) excluded = `disabled (plugin ${p.name})`;
    return { ...w, item: { ...item, ...(excluded ? { excluded } : {}) } };
  });
}
