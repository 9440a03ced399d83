/**
 * The walk reader "skills" and the catalog built from what it finds.
 *
 * In each root (an ecosystem's folder at one tier, or a plugin's install folder) the reader reads
 *   skills/<dir>/SKILL.md      (OpenCode also skill/<dir>/SKILL.md)
 *   commands/**\/*.md           (OpenCode also command/**\/*.md)
 * A skill and a command with one name in one root: the skill wins (Claude Code's rule). Bundled roots and
 * disabled plugins are not read. Reading runs nothing, so every tier is read, trusted or not: a skill is
 * inert data (the guide's "Enable is not trust").
 */
import fs from "node:fs";
import path from "node:path";
import type { Discovered, Reader, Root, WalkItem } from "../../kernel/api.js";
import { type Skill, type SkillKind } from "./api.js";
import { stableId } from "./kit/shared.js";
import { firstLine, parseFrontmatter } from "./frontmatter.js";

export const READER_ID = "skills";
export const ECOSYSTEMS = ["oceancode", "claude", "opencode", "grok"] as const;

export interface SkillItem extends WalkItem {
  /** the bare name; a plugin's items are read as `<plugin>:<name>` */
  name: string;
  bare: string;
  kind: SkillKind;
  file: string;
  dir: string;
  description: string;
  argumentHint?: string;
  allowedTools?: string[];
  modelInvocable: boolean;
  userInvocable: boolean;
  warning?: string;
  /** false: read from a disabled plugin (kept so `skill list` can say why it is off; never offered) */
  pluginEnabled?: boolean;
}

const NAME_OK = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_DEPTH = 4;
/** characters of one description in the listing */
export const MAX_DESCRIPTION = 1024;

function dirents(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

function isDir(p: string, d: fs.Dirent): boolean {
  if (d.isDirectory()) return true;
  if (!d.isSymbolicLink()) return false;
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Read one file into an item; `fallback` is the directory (skill) or file (command) name. */
export function readItem(kind: SkillKind, file: string, fallback: string): SkillItem | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const p = parseFrontmatter(text);
  const fm = p.fm;
  let warning = p.error ? `${file}: ${p.error}; loaded as '${fallback}'` : undefined;
  let name = fm?.name ?? fallback;
  if (!NAME_OK.test(name)) {
    warning ??= `${file}: name '${name}' is not a valid skill name; loaded as '${fallback}'`;
    name = fallback;
  }
  const description = fm?.description || firstLine(p.body) || name;
  return {
    name,
    bare: name,
    kind,
    file,
    dir: path.dirname(file),
    description: description.replace(/\s+/g, " ").trim(),
    ...(fm?.["argument-hint"] ? { argumentHint: fm["argument-hint"] } : {}),
    ...(fm?.["allowed-tools"] ? { allowedTools: fm["allowed-tools"] } : {}),
    modelInvocable: fm?.["disable-model-invocation"] !== true,
    userInvocable: fm?.["user-invocable"] !== false,
    ...(warning ? { warning } : {}),
  };
}

function commandFiles(dir: string, depth = 0): string[] {
  const out: string[] = [];
  for (const d of dirents(dir)) {
    const p = path.join(dir, d.name);
    if (d.name.startsWith(".")) continue;
    if (isDir(p, d)) {
      if (depth < MAX_DEPTH) out.push(...commandFiles(p, depth + 1));
    } else if (d.name.endsWith(".md")) out.push(p);
  }
  return out;
}

/** `withDisabled`: also read a disabled plugin's root, its items marked `pluginEnabled: false`. */
export function readRoot(root: Pick<Root, "dir" | "ecosystem" | "tier" | "plugin">, withDisabled = false): SkillItem[] {
  if (root.tier === "bundled" || (root.plugin && !root.plugin.enabled && !withDisabled)) return [];
  const skillFolders = root.ecosystem === "opencode" ? ["skills", "skill"] : ["skills"];
  const commandFolders = root.ecosystem === "opencode" ? ["commands", "command"] : ["commands"];
  const items: SkillItem[] = [];
  const seen = new Map<string, SkillItem>();
  const add = (it: SkillItem | undefined) => {
    if (!it) return;
    const prev = seen.get(it.name);
    if (prev) {
      // a command that a skill of the same root already names is simply the skill's (Claude Code's rule)
      if (!(prev.kind === "skill" && it.kind === "command")) {
        prev.warning ??= `${it.file}: '${it.name}' is also ${prev.file}; the first is used`;
      }
      return;
    }
    seen.set(it.name, it);
    items.push(it);
  };
  for (const folder of skillFolders) {
    const base = path.join(root.dir, folder);
    for (const d of dirents(base)) {
      const dir = path.join(base, d.name);
      if (d.name.startsWith(".") || !isDir(dir, d)) continue;
      // no exists check first: readItem's read fails quietly for a folder without SKILL.md (one syscall less per skill)
      add(readItem("skill", path.join(dir, "SKILL.md"), d.name));
    }
  }
  for (const folder of commandFolders) {
    for (const file of commandFiles(path.join(root.dir, folder))) add(readItem("command", file, path.basename(file, ".md")));
  }
  if (root.plugin) for (const it of items) it.name = `${root.plugin.name}:${it.bare}`;
  if (root.plugin && !root.plugin.enabled) for (const it of items) it.pluginEnabled = false;
  return items;
}

/** The walk reader reads disabled plugins too; the enable fold (enable.ts) keeps their items out. */
export const skillsReader: Reader<SkillItem> = { id: READER_ID, ecosystems: ECOSYSTEMS, read: (root) => readRoot(root, true) };

/**
 * The collision rule over everything found, in walk order (narrowest first): a name found once stays
 * bare; each colliding member is `<tier>:<name>`, or its stable id when its own tier has the name twice.
 * The first copy of a name wins the bare name (the others are `shadowed`). Reads only names and roots,
 * so it is deterministic and idempotent.
 */
export function buildCatalog(found: Array<Pick<Discovered<SkillItem>, "item" | "root">>): Skill[] {
  const byName = new Map<string, number>();
  const byTier = new Map<string, number>();
  for (const { item, root } of found) {
    byName.set(item.name, (byName.get(item.name) ?? 0) + 1);
    byTier.set(`${root.tier}\0${item.name}`, (byTier.get(`${root.tier}\0${item.name}`) ?? 0) + 1);
  }
  const winners = new Set<string>();
  const ids = new Set<string>();
  const out: Skill[] = [];
  for (const { item, root } of found) {
    const id = stableId(root.tier, root.ecosystem, item.bare);
    const pluginId = root.plugin ? `${id}@${root.plugin.name}` : id;
    if (ids.has(pluginId)) continue; // the same root read twice: keep one
    ids.add(pluginId);
    const n = byName.get(item.name)!;
    const qualifiedName = n === 1 ? item.name : byTier.get(`${root.tier}\0${item.name}`)! > 1 ? id : `${root.tier}:${item.name}`;
    const shadowed = winners.has(item.name);
    winners.add(item.name);
    out.push({
      kind: item.kind,
      name: item.bare,
      qualifiedName,
      id,
      tier: root.tier,
      ecosystem: root.ecosystem,
      ...(root.plugin ? { plugin: root.plugin.name } : {}),
      file: item.file,
      dir: item.dir,
      description: item.description,
      ...(item.argumentHint ? { argumentHint: item.argumentHint } : {}),
      ...(item.allowedTools ? { allowedTools: item.allowedTools } : {}),
      modelInvocable: item.modelInvocable,
      userInvocable: item.userInvocable,
      shadowed,
      ...(item.warning ? { warning: item.warning } : {}),
    });
  }
  return out;
}

/**
 * Find an item by qualified name, stable id or bare name (the bare name runs the narrowest copy; a
 * plugin item answers its bare name only when nothing outside plugins has it). `by` filters what the
 * caller may reach: the model never reaches `disable-model-invocation`, the user never `user-invocable: false`.
 */
export function resolveIn(items: Skill[], raw: string, by: "model" | "user" = "model"): Skill | undefined {
  const name = raw.trim().replace(/^\//, "");
  const allowed = (s: Skill | undefined) => (s && (by === "model" ? s.modelInvocable : s.userInvocable) ? s : undefined);
  const exact = items.find((s) => s.qualifiedName === name) ?? items.find((s) => s.id === name);
  if (exact) return allowed(exact);
  const bare = items.find((s) => !s.plugin && s.name === name) ?? items.find((s) => s.plugin && s.name === name);
  return allowed(bare);
}

/**
 * The listing's size budget in characters (about 6 k tokens). Past it, descriptions are cut to an equal
 * share so every name still fits: the model can still load any skill, and 1,000 skills cost a bounded
 * first request (bench/skills/capabilities). Below it the listing is as written.
 */
export const LISTING_BUDGET_CHARS = 24_000;

/** The `<available_skills>` block: one line per item the model may load, walk order. */
export function formatListing(items: Skill[], budget = LISTING_BUDGET_CHARS): string {
  const visible = items.filter((s) => s.modelInvocable);
  if (!visible.length) return "";
  // a description is capped as Claude Code caps it, and cannot close the block early
  const clean = (d: string) => (d.length > MAX_DESCRIPTION ? `${d.slice(0, MAX_DESCRIPTION - 3)}...` : d).replace(/<\/?available_skills>/g, "");
  const head = (s: Skill) => `- ${s.qualifiedName}${s.argumentHint ? ` ${s.argumentHint}` : ""}`;
  const tail = (s: Skill) => (s.kind === "command" ? " (command)" : "");
  const intro = 'Skills and commands you can load with the skill tool ({"skill": "<name>", "args": "<arguments>"}). When a task matches one, load it first and follow its instructions.';
  const full = visible.map((s) => `${head(s)}: ${clean(s.description)}${tail(s)}`);
  let lines = full;
  let note: string[] = [];
  if (full.reduce((n, l) => n + l.length + 1, 0) > budget) {
    // an equal share of what the names leave; under 16 characters a description says nothing: names only
    const fixed = visible.reduce((n, s) => n + head(s).length + tail(s).length + 3, 0);
    const share = Math.floor((budget - fixed) / visible.length);
    const cut = (d: string) => (d.length <= share ? d : `${d.slice(0, Math.max(0, share - 3))}...`);
    lines = visible.map((s) => (share >= 16 ? `${head(s)}: ${cut(clean(s.description))}${tail(s)}` : `${head(s)}${tail(s)}`));
    note = [`(${visible.length} items: descriptions ${share >= 16 ? "shortened" : "left out"} to fit; load one by name to read it in full.)`];
  }
  return ["<available_skills>", intro, ...note, ...lines, "</available_skills>"].join("\n");
}
