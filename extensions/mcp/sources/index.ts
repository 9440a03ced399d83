/**
 * The MCP sources: every config file a server may be declared in (gather.ts), trust, enable and the
 * signed allow-list per copy (policy.ts), then one rule for names declared more than once: the narrowest
 * copy that may run runs, under the bare name; every other copy is listed `shadowed` as `<tier>:<name>`
 * and never spawned. When no copy may run, the narrowest is listed with its hold. A held copy never
 * displaces one that may run (architecture rule 13).
 */
import fs from "node:fs";
import path from "node:path";
import { type ProjectTrust } from "../../trust/api.js";
import { emptyTrust } from "../../trust/kit.js";
import type { ServerEntry, ServerTier } from "../api.js";
import { gitTracked, type Declared, type Warn } from "./files.js";
import { gather, type PluginSource } from "./gather.js";
import { decide, type McpRequirements } from "./policy.js";
import { isObj } from "./shapes.js";

export { expandServer } from "./expand.js";
export type { McpRequirements } from "./policy.js";
export type { PluginSource } from "./gather.js";

export interface ResolveInput {
  /** the project directory (its absolute path keys trust.json and ~/.claude.json projects) */
  project: string;
  home: string;
  /** oceancode's user dir (~/.oceancode) */
  userOcDir: string;
  /** the resolved `mcp` config section, if any (servers are read per file, never from this merge) */
  configured?: Record<string, unknown>;
  /** the environment (XDG_CONFIG_HOME, OC_CONFIG); default process.env */
  env?: NodeJS.ProcessEnv;
  /** oceancode's user config files read for `mcp.servers`; default OC_CONFIG or <XDG_CONFIG_HOME>/oceancode/oceancode.json(c) */
  userConfigFiles?: string[];
  /** this project's trust.json record; default: read from <userOcDir>/trust.json */
  trust?: ProjectTrust;
  /** installed plugins; default: <userOcDir>/plugins/installed.json (oceancode's own store) */
  plugins?: PluginSource[];
  /** the verified `mcp` section of the signed requirements.json (undefined: no allow-list) */
  requirements?: McpRequirements;
  /** does this project file count as the checkout's (repo tier)? default: kernel/ownership.ts (fails closed) */
  tracked?: (file: string) => boolean;
  /** one line per unreadable file or skipped entry; default: dropped */
  warn?: Warn;
}

const TIER_RANK: Record<ServerTier, number> = { local: 0, project: 1, user: 2, plugin: 3 };

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** The project's trust.json record, read tolerantly (corrupt or missing: nothing trusted). */
export function readTrust(userOcDir: string, project: string): ProjectTrust {
  const all = readJson(path.join(userOcDir, "trust.json"));
  const r = isObj(all) ? all[path.resolve(project)] : undefined;
  const t = emptyTrust();
  if (!isObj(r)) return t;
  t.repo = r.repo === true;
  if (isObj(r.mcp)) for (const [k, v] of Object.entries(r.mcp)) if (typeof v === "boolean") t.mcp[k] = v;
  t.disabled_mcp = strings(r.disabled_mcp);
  t.enabled_mcp = strings(r.enabled_mcp);
  t.everything_off = r.everything_off === true;
  return t;
}

/** oceancode's own plugin store (installed.json `plugins`). */
export function readPluginStore(userOcDir: string): PluginSource[] {
  const v = readJson(path.join(userOcDir, "plugins", "installed.json"));
  const list = isObj(v) && Array.isArray(v.plugins) ? v.plugins : [];
  return list
    .filter((p): p is Record<string, unknown> => isObj(p) && typeof p.name === "string" && typeof p.path === "string")
    .map((p) => ({ name: p.name as string, dir: path.resolve(p.path as string), enabled: p.enabled !== false, trusted: p.trusted === true }));
}

export function defaultUserConfigFiles(home: string, env: NodeJS.ProcessEnv): string[] {
  if (env.OC_CONFIG) return [path.resolve(env.OC_CONFIG)];
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, ".config");
  return [path.join(xdg, "oceancode", "oceancode.jsonc"), path.join(xdg, "oceancode", "oceancode.json")];
}

/** The shadow rule over decided copies (in precedence order). */
export function shadow(copies: Array<Omit<ServerEntry, "qualifiedName">>): ServerEntry[] {
  const byName = new Map<string, Array<Omit<ServerEntry, "qualifiedName">>>();
  for (const c of copies) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const out: ServerEntry[] = [];
  for (const [name, list] of byName) {
    const sorted = [...list].sort((a, b) => TIER_RANK[a.tier] - TIER_RANK[b.tier]);
    if (sorted.length === 1) {
      out.push({ ...sorted[0]!, qualifiedName: name });
      continue;
    }
    const runner = sorted.find((c) => c.hold === "ready") ?? sorted[0]!;
    const narrowest = sorted[0]!;
    const taken = new Set<string>([name]);
    // `<tier>:<name>`; two copies in one tier: `<tier>.<plugin or ecosystem>:<name>`, then a number
    const qualify = (c: Omit<ServerEntry, "qualifiedName">) => {
      const sameTier = sorted.filter((x) => x.tier === c.tier).length > 1;
      let q = sameTier ? `${c.tier}.${c.plugin ?? c.ecosystem ?? "file"}:${name}` : `${c.tier}:${name}`;
      for (let n = 2; taken.has(q); n++) q = `${c.tier}.${c.plugin ?? c.ecosystem ?? "file"}${n}:${name}`;
      taken.add(q);
      return q;
    };
    sorted.forEach((c) => {
      if (c === runner) out.push({ ...c, qualifiedName: name });
      else if (c === narrowest) out.push({ ...c, qualifiedName: qualify(c), reason: `${c.reason ?? c.hold}; the ${runner.tier} copy runs instead` });
      else out.push({ ...c, qualifiedName: qualify(c), hold: "shadowed", reason: `shadowed by the ${runner.tier} copy (${runner.source})` });
    });
  }
  return out;
}

export function resolveServers(input: ResolveInput): ServerEntry[] {
  const env = input.env ?? process.env;
  const warn = input.warn ?? (() => undefined);
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(input.home, ".config");
  const { declared, switches } = gather({
    project: input.project,
    home: input.home,
    userConfigFiles: input.userConfigFiles ?? defaultUserConfigFiles(input.home, env),
    xdgConfigHome: xdg,
    plugins: input.plugins ?? readPluginStore(input.userOcDir),
    tracked: input.tracked ?? ((f) => gitTracked(input.project, f)),
    warn,
  });
  const trust = input.trust ?? readTrust(input.userOcDir, input.project);
  const decided = declared.map((d: Declared) => {
    const x = decide(d, trust, switches, input.requirements);
    return {
      name: d.name,
      tier: d.tier,
      source: d.source,
      ...(d.plugin !== undefined ? { plugin: d.plugin } : {}),
      ecosystem: d.ecosystem,
      config: d.config,
      trusted: x.trusted,
      enabled: x.enabled,
      hold: x.hold,
      ...(x.reason !== undefined ? { reason: x.reason } : {}),
    };
  });
  return shadow(decided);
}

export { inspectRows, type InspectRow } from "./inspect.js";
