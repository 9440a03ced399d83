/**
 * The `/` popup's skill rows: every enabled skill and command a user may type (`SkillsService.list()`
 * holds only enabled items; `user-invocable: false` ones are left out), by the name that runs it,
 * with its argument hint and description. All of it is file content, so it is made display-safe here.
 */
import type { Skill } from "../../extensions/skills/api.js";
import { visibleLine } from "../terminal/sanitize.js";
import type { SlashEntry } from "./components/dialogs.js";

/** The part of the skills service the pager reads (structural: the pager never imports extension code). */
export interface SkillsLike {
  list(): Skill[];
}

/** characters of a description kept for a popup row (the row is truncated to the width anyway) */
const MAX_SUMMARY = 160;

/** rows per catalog array: the service hands out the same array until it reloads, and the popup asks per key */
const cache = new WeakMap<Skill[], { builtins: string; rows: SlashEntry[] }>();

export function skillEntries(skills: SkillsLike | undefined, builtins: ReadonlySet<string>): SlashEntry[] {
  if (!skills) return [];
  let items: Skill[];
  try {
    items = skills.list();
  } catch {
    return []; // a catalog that cannot be read must not take the composer down
  }
  const key = [...builtins].join("\0");
  const hit = cache.get(items);
  if (hit && hit.builtins === key) return hit.rows;
  const rows = build(items, builtins);
  cache.set(items, { builtins: key, rows });
  return rows;
}

function build(items: Skill[], builtins: ReadonlySet<string>): SlashEntry[] {
  const out: SlashEntry[] = [];
  const seen = new Set<string>();
  for (const s of items) {
    if (!s.userInvocable) continue;
    const name = visibleLine(s.qualifiedName);
    if (builtins.has(name) || seen.has(name)) continue;
    seen.add(name);
    const summary = visibleLine(s.description).slice(0, MAX_SUMMARY);
    out.push({ name, summary: s.kind === "command" ? `${summary} (command)` : summary, skill: true, ...(s.argumentHint ? { usage: visibleLine(s.argumentHint) } : {}) });
  }
  return out;
}
