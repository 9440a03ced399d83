/**
 * The walk reader "agents" and the catalog built from what it finds.
 *
 * In each root (an ecosystem's folder at one tier, or a plugin's install folder) the reader reads every
 * `*.md` under
 *   agents/                  (oceancode, Claude Code, plugins)
 *   agent/, agents/          (OpenCode)
 *   agents/, personas/       (Grok: personas are agents with a persona's prompt)
 * and, in an OpenCode root, the `agent` entries of its opencode.json(c) (opencode-config.ts; the project's
 * own opencode.json is a repo-tier root of its own: projectConfigRoot). Bundled roots and disabled plugins are not read. Reading runs nothing, so every tier is read, trusted or
 * not: an agent file is inert data (the guide's "Enable is not trust"); what a child may do is decided by
 * the permissions and hooks that gate every tool call, as for its parent.
 */
import fs from "node:fs";
import path from "node:path";
import type { Discovered, Reader, Root, WalkItem } from "../../kernel/api.js";
import { stableId } from "../skills/kit.js";
import { GENERAL_PURPOSE, type Agent, type AgentSpec } from "./api.js";
import { translate } from "./frontmatter.js";
import { configFile, readConfigAgents } from "./opencode-config.js";

export const READER_ID = "agents";
export const ECOSYSTEMS = ["oceancode", "claude", "opencode", "grok"] as const;
const MAX_DEPTH = 3;
/** characters of one description in the listing */
export const MAX_DESCRIPTION = 1024;

export interface AgentItem extends WalkItem, AgentSpec {
  /** the bare name; a plugin's agents are read as `<plugin>:<name>` */
  name: string;
  bare: string;
  file: string;
}

export const GENERAL_PURPOSE_PROMPT =
  "You are a general-purpose sub-agent of oceancode, working in the user's project on one task given by the main agent. Use the tools to search, read, edit and run code as the task needs. Work on your own until the task is done, then answer with a concise report of what you found or did: the main agent sees only your final message.";

/** The built-in agent: no file, every tool. */
export function generalPurpose(): AgentSpec {
  return {
    name: GENERAL_PURPOSE,
    description: "General-purpose agent for researching complex questions, searching for code and running multi-step tasks on its own; use it when a search or task may take several rounds.",
    prompt: GENERAL_PURPOSE_PROMPT,
    tools: { mode: "all" },
    invocable: true,
  };
}

function folders(ecosystem: string): string[] {
  if (ecosystem === "opencode") return ["agent", "agents"];
  if (ecosystem === "grok") return ["agents", "personas"];
  return ["agents"];
}

function mdFiles(dir: string, depth = 0): string[] {
  let ents: fs.Dirent[];
  try {
    ents = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const d of ents) {
    if (d.name.startsWith(".")) continue;
    const p = path.join(dir, d.name);
    let isDir = d.isDirectory();
    if (d.isSymbolicLink()) isDir = fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
    if (isDir) {
      if (depth < MAX_DEPTH) out.push(...mdFiles(p, depth + 1));
    } else if (d.name.endsWith(".md")) out.push(p);
  }
  return out;
}

/** The agents of an OpenCode root's opencode.json(c), past the names `seen` already has (a warning on the first copy). */
function configItems(root: Pick<Root, "dir" | "tier" | "project">, seen: Map<string, AgentItem>): AgentItem[] {
  const config = configFile(root.dir);
  const items: AgentItem[] = [];
  // a `{file:}` prompt stays inside the project (repo tier) or the config folder (user tier)
  for (const spec of config ? readConfigAgents(config, root.tier === "repo" ? root.project || root.dir : root.dir) : []) {
    const prev = seen.get(spec.name);
    if (prev) {
      prev.warning ??= `${config}: agent '${spec.name}' is also ${prev.file}; the first is used`;
      continue;
    }
    const item: AgentItem = { ...spec, bare: spec.name };
    seen.set(spec.name, item);
    items.push(item);
  }
  return items;
}

export function readRoot(root: Pick<Root, "dir" | "ecosystem" | "tier" | "plugin"> & Partial<Pick<Root, "project">>): AgentItem[] {
  if (root.tier === "bundled" || (root.plugin && !root.plugin.enabled)) return [];
  const items: AgentItem[] = [];
  const seen = new Map<string, AgentItem>();
  for (const folder of folders(root.ecosystem)) {
    for (const file of mdFiles(path.join(root.dir, folder))) {
      let text: string;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch {
        continue;
      }
      const spec = translate(root.ecosystem, text, path.basename(file, ".md"), file);
      const prev = seen.get(spec.name);
      if (prev) {
        prev.warning ??= `${file}: agent '${spec.name}' is also ${prev.file}; the first is used`;
        continue;
      }
      const item: AgentItem = { ...spec, bare: spec.name, file };
      seen.set(spec.name, item);
      items.push(item);
    }
  }
  // OpenCode's config file: `agent: {<name>: {…}}` (an agent file of the same name wins)
  if (root.ecosystem === "opencode" && !root.plugin) items.push(...configItems({ ...root, project: root.project ?? "" }, seen));
  if (root.plugin) for (const it of items) it.name = `${root.plugin.name}:${it.bare}`;
  return items;
}

/**
 * The project's own opencode.json(c) (beside .opencode/, not in it) as a repo-tier OpenCode root: the walk
 * has one only for the .opencode folder. Undefined when the file is absent or the project is the home.
 */
export function projectConfigRoot(project: string, home: string): Root | undefined {
  if (path.resolve(project) === path.resolve(home) || !configFile(project)) return undefined;
  return { tier: "repo", ecosystem: "opencode", dir: project, project, trustedByDefault: false };
}

/** `found` with the project opencode.json's agents put after the walk's local and repo tiers. */
export function withProjectConfig(found: Found[], root: Root | undefined): Found[] {
  if (!root) return found;
  const extra: Found[] = configItems(root, new Map()).map((item) => ({ item, root }));
  if (!extra.length) return found;
  const at = found.findIndex((f) => f.root.tier !== "local" && f.root.tier !== "repo");
  return at < 0 ? [...found, ...extra] : [...found.slice(0, at), ...extra, ...found.slice(at)];
}

export const agentsReader: Reader<AgentItem> = { id: READER_ID, ecosystems: ECOSYSTEMS, read: readRoot };

type Found = Pick<Discovered<AgentItem>, "item" | "root">;

/**
 * The skills' collision rule over everything found (walk order, narrowest first) plus the built-in
 * general-purpose agent last (tier bundled): a name found once stays bare; colliding members are
 * `<tier>:<name>`, or their stable id when one tier has the name twice; the first copy wins the bare name.
 */
export function buildCatalog(found: Found[]): Agent[] {
  const builtin: Found = {
    item: { ...generalPurpose(), bare: GENERAL_PURPOSE, file: "" },
    root: { tier: "bundled", ecosystem: "oceancode", dir: "", project: "", trustedByDefault: true },
  };
  const all = [...found, builtin];
  const byName = new Map<string, number>();
  const byTier = new Map<string, number>();
  for (const { item, root } of all) {
    byName.set(item.name, (byName.get(item.name) ?? 0) + 1);
    byTier.set(`${root.tier}\0${item.name}`, (byTier.get(`${root.tier}\0${item.name}`) ?? 0) + 1);
  }
  const winners = new Set<string>();
  const ids = new Set<string>();
  const out: Agent[] = [];
  for (const { item, root } of all) {
    const id = stableId(root.tier, root.ecosystem, item.bare);
    const key = root.plugin ? `${id}@${root.plugin.name}` : id;
    if (ids.has(key)) continue; // the same root read twice: keep one
    ids.add(key);
    const n = byName.get(item.name)!;
    const qualifiedName = n === 1 ? item.name : byTier.get(`${root.tier}\0${item.name}`)! > 1 ? id : `${root.tier}:${item.name}`;
    const { bare, name: _qualified, ...spec } = item;
    out.push({
      ...spec,
      name: bare,
      qualifiedName,
      id,
      tier: root.tier,
      ecosystem: root.ecosystem,
      ...(root.plugin ? { plugin: root.plugin.name } : {}),
      shadowed: winners.has(item.name),
      rootTrusted: root.trustedByDefault,
    });
    winners.add(item.name);
  }
  return out;
}

/** By qualified name, stable id, or bare name (the narrowest copy; a plugin agent only when nothing else has the name). */
export function resolveIn(agents: Agent[], raw: string): Agent | undefined {
  const name = raw.trim();
  const ok = agents.filter((a) => a.invocable);
  return (
    ok.find((a) => a.qualifiedName === name) ??
    ok.find((a) => a.id === name) ??
    ok.find((a) => !a.plugin && a.name === name) ??
    ok.find((a) => a.plugin && a.name === name)
  );
}

/** The `<available_agents>` block: one line per agent the model may start, walk order, the built-in last. */
export function formatListing(agents: Agent[]): string {
  const visible = agents.filter((a) => a.invocable);
  if (!visible.length) return "";
  const desc = (d: string) => (d.length > MAX_DESCRIPTION ? `${d.slice(0, MAX_DESCRIPTION - 3)}...` : d).replace(/<\/?available_agents>/g, "");
  return [
    "<available_agents>",
    'Sub-agents you can start with the agent tool ({"subagent_type": "<name>", "description": "<3-5 words>", "prompt": "<the whole task>"}). Each runs on its own with its own instructions and tools, sees only your prompt, and returns its final answer. With "run_in_background": true you get a job id at once; read the answer with job_output.',
    ...visible.map((a) => `- ${a.qualifiedName}: ${desc(a.description)}`),
    "</available_agents>",
  ].join("\n");
}
