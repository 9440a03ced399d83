/**
 * The discovery walk: one pass over the tiers, narrowest scope first
 *   local -> repo -> user -> plugin -> bundled
 * and, in each tier, one root per ecosystem that exists: the kernel knows only its own (.oceancode and
 * its plugin store); every other ecosystem's roots (.claude, .opencode, ...) are declared by trusted
 * extensions (`contributes.walkRoots`, `contributes.pluginRoots`; see kernel/ecosystems.ts). Readers (the kernel's extension reader; later skills, rules, agents, hooks, MCP readers) are handed
 * each root of the ecosystems they read and return named items. Names that collide are qualified
 * (`<tier>:<name>`, then `<tier>.<ecosystem>:<name>`); unique names stay bare; the first (narrowest)
 * copy wins. The walk reads files only; it runs nothing, so it is idempotent and deterministic.
 */
import fs from "node:fs";
import path from "node:path";
import { ownershipOf, type Ownership } from "./ownership.js";
import type { Paths } from "./paths.js";

export const TIERS = ["local", "repo", "user", "plugin", "bundled"] as const;
export type Tier = (typeof TIERS)[number];
/** "oceancode" is the kernel's own; any other name is declared by an extension (an open set) */
export type Ecosystem = string;

/** One ecosystem's roots, declared in a trusted extension's manifest (`contributes.walkRoots`). */
export interface EcosystemRoots {
  ecosystem: string;
  /** folder in the project, e.g. ".claude" */
  repo?: string;
  /** folder under the user's home, e.g. "~/.claude" */
  user?: string;
}

/** A plugin root an extension's plugin-roots module found (always untrusted until the trust gate says so). */
export interface PluginRootRecord {
  ecosystem: string;
  name: string;
  dir: string;
  enabled: boolean;
  /** where the record came from (defaults to the ecosystem) */
  source?: string;
}

export interface Root {
  tier: Tier;
  ecosystem: Ecosystem;
  /** the ecosystem folder (e.g. <project>/.claude, ~/.oceancode, a plugin's install dir) */
  dir: string;
  /** the project this walk is for */
  project: string;
  /** repo and plugin roots start untrusted; the trust gate decides before their code runs */
  trustedByDefault: boolean;
  /** plugin roots: the plugin's name and whether it is enabled */
  plugin?: { name: string; enabled: boolean; trusted: boolean; source: string };
  /** a project .oceancode root: whose it is (kernel/ownership.ts); a repo tier one says why */
  ownership?: Ownership;
  /** bundled roots: where compiled code lives when it differs from `dir` */
  codeDir?: string;
}

export interface WalkItem {
  name: string;
}

export interface Reader<T extends WalkItem> {
  id: string;
  ecosystems: readonly Ecosystem[];
  read(root: Root): T[];
}

export interface Discovered<T extends WalkItem> {
  item: T;
  root: Root;
  /** bare when unique, else qualified */
  qualifiedName: string;
  /** a narrower copy with the same bare name won */
  shadowed: boolean;
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

interface PluginRecord {
  name: string;
  path: string;
  enabled?: boolean;
  trusted?: boolean;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * installed.json: `plugins` (oceancode's own installs) and `external.<source>.<name>.enabled`, the user's
 * enable/disable of a plugin another tool installed (recorded here, never in that tool's files).
 */
export interface PluginStoreFile {
  plugins?: Array<Partial<PluginRecord>>;
  external?: Record<string, Record<string, { enabled?: unknown; trusted?: unknown }>>;
}

/** installed.json read as is: undefined when it is missing or not a JSON object. */
export function readPluginStoreFile(file: string): PluginStoreFile | undefined {
  const v = readJson(file);
  return v && typeof v === "object" && !Array.isArray(v) ? (v as PluginStoreFile) : undefined;
}

function readPluginStore(paths: Paths): PluginStoreFile | undefined {
  return readPluginStoreFile(path.join(paths.userOcDir, "plugins", "installed.json"));
}

/**
 * A plugin root's enabled / trusted state as `store` (installed.json) records it — the walk's own rule,
 * exported so a live reader (hooks, rules) can re-apply it to a cached root when the file changes:
 * an oceancode plugin's own record (gone from the store: neither enabled nor trusted); another tool's
 * plugin: an `external.<source>.<name>` override for enabled (else `fallback`), trusted only by that
 * override. No store (missing or corrupt file): `fallback`, the state the walk started with.
 */
export function pluginStateIn(
  store: PluginStoreFile | undefined,
  plugin: { name: string; source: string },
  fallback: { enabled: boolean; trusted: boolean },
): { enabled: boolean; trusted: boolean } {
  if (!store) return fallback;
  if (plugin.source === "oceancode") {
    const rec = (Array.isArray(store.plugins) ? store.plugins : []).find((p) => p?.name === plugin.name);
    return rec ? { enabled: rec.enabled !== false, trusted: rec.trusted === true } : { enabled: false, trusted: false };
  }
  const o = store.external?.[plugin.source]?.[plugin.name];
  return { enabled: typeof o?.enabled === "boolean" ? o.enabled : fallback.enabled, trusted: o?.trusted === true };
}

/**
 * Another tool's plugin roots as the user left them here: a plugin oceancode's store also holds is that
 * copy's (one root per plugin name), an `external` override decides enabled, and only `external`
 * (`oceancode plugin trust <name>`) makes one trusted.
 */
function foreignPluginRoots(foreign: PluginRootRecord[], store: PluginStoreFile | undefined): Array<PluginRootRecord & { trusted: boolean }> {
  const own = new Set((Array.isArray(store?.plugins) ? store.plugins : []).map((p) => p?.name));
  return foreign
    .filter((p) => !own.has(p.name))
    .map((p) => ({ ...p, ...pluginStateIn(store, { name: p.name, source: p.source ?? p.ecosystem }, { enabled: p.enabled, trusted: false }) }));
}

/** Plugins installed in oceancode's own store. */
function pluginRoots(paths: Paths, store: PluginStoreFile | undefined): Root[] {
  const roots: Root[] = [];
  for (const p of Array.isArray(store?.plugins) ? store.plugins : []) {
    if (typeof p?.name !== "string" || typeof p.path !== "string" || !isDir(p.path)) continue;
    roots.push({
      tier: "plugin",
      ecosystem: "oceancode",
      dir: path.resolve(p.path),
      project: paths.project,
      trustedByDefault: p.trusted === true,
      plugin: { name: p.name, enabled: p.enabled !== false, trusted: p.trusted === true, source: "oceancode" },
    });
  }
  return roots;
}

export interface WalkOptions {
  paths: Paths;
  /** the bundled root: manifests (and data) in `dir`, compiled code in `codeDir` */
  bundled?: { dir: string; codeDir: string };
}

export class DiscoveryWalk {
  private cachedRoots?: Root[];
  private ecosystems: EcosystemRoots[] = [];
  private foreignPlugins: PluginRootRecord[] = [];
  private ownership?: Ownership;
  constructor(private readonly opts: WalkOptions) {}

  /** Add the roots trusted extensions declare (before that, the walk has only oceancode's own roots). */
  addEcosystems(roots: EcosystemRoots[], plugins: PluginRootRecord[] = []): void {
    this.ecosystems = roots;
    this.foreignPlugins = plugins;
    this.cachedRoots = undefined;
  }

  /** Every root, in walk order (narrowest first). Computed once per walk. */
  roots(): Root[] {
    if (this.cachedRoots) return this.cachedRoots;
    const { paths } = this.opts;
    const roots: Root[] = [];
    const projectOc = path.join(paths.project, ".oceancode");
    // a project .oceancode/ is the local tier only when it is shown to be the user's (kernel/ownership.ts)
    const ocIsProjectDir = projectOc !== paths.userOcDir && isDir(projectOc);
    // git runs once per walk, even when addEcosystems() recomputes the roots
    const own = ocIsProjectDir ? (this.ownership ??= ownershipOf(paths.project, projectOc)) : undefined;
    if (own) roots.push({ tier: own.tier, ecosystem: "oceancode", dir: projectOc, project: paths.project, trustedByDefault: own.tier === "local", ownership: own });
    for (const e of this.ecosystems) {
      const dir = e.repo ? path.join(paths.project, e.repo) : "";
      if (dir && paths.project !== paths.home && isDir(dir)) roots.push({ tier: "repo", ecosystem: e.ecosystem, dir, project: paths.project, trustedByDefault: false });
    }
    const userDirs: Array<[Ecosystem, string]> = [["oceancode", paths.userOcDir]];
    for (const e of this.ecosystems) if (e.user) userDirs.push([e.ecosystem, path.join(paths.home, e.user.replace(/^~\//, ""))]);
    for (const [eco, dir] of userDirs) if (isDir(dir)) roots.push({ tier: "user", ecosystem: eco, dir, project: paths.project, trustedByDefault: true });
    const store = readPluginStore(paths);
    const plugins: Root[] = foreignPluginRoots(this.foreignPlugins, store).map((p) => ({
      tier: "plugin",
      ecosystem: p.ecosystem,
      dir: path.resolve(p.dir),
      project: paths.project,
      trustedByDefault: p.trusted,
      plugin: { name: p.name, enabled: p.enabled, trusted: p.trusted, source: p.source ?? p.ecosystem },
    }));
    roots.push(...[...pluginRoots(paths, store), ...plugins].sort((a, b) => (a.plugin!.name < b.plugin!.name ? -1 : a.plugin!.name > b.plugin!.name ? 1 : 0)));
    if (this.opts.bundled) {
      roots.push({
        tier: "bundled",
        ecosystem: "oceancode",
        dir: this.opts.bundled.dir,
        codeDir: this.opts.bundled.codeDir,
        project: paths.project,
        trustedByDefault: true,
      });
    }
    this.cachedRoots = roots;
    return roots;
  }

  /** Hand each matching root to the reader; qualify colliding names. */
  run<T extends WalkItem>(reader: Reader<T>): Array<Discovered<T>> {
    const found: Array<{ item: T; root: Root }> = [];
    for (const root of this.roots()) {
      if (!reader.ecosystems.includes(root.ecosystem)) continue;
      for (const item of reader.read(root)) found.push({ item, root });
    }
    return qualify(found);
  }
}

/** The collision rule: unique names stay bare; colliding members are qualified; first copy wins. */
export function qualify<T extends WalkItem>(found: Array<{ item: T; root: Root }>): Array<Discovered<T>> {
  const byName = new Map<string, number>();
  for (const f of found) byName.set(f.item.name, (byName.get(f.item.name) ?? 0) + 1);
  const tierCount = new Map<string, number>();
  for (const f of found) {
    const k = `${f.root.tier}:${f.item.name}`;
    tierCount.set(k, (tierCount.get(k) ?? 0) + 1);
  }
  const winners = new Set<string>();
  return found.map(({ item, root }) => {
    const n = byName.get(item.name)!;
    let qualifiedName = item.name;
    if (n > 1) {
      qualifiedName =
        tierCount.get(`${root.tier}:${item.name}`)! > 1 ? `${root.tier}.${root.ecosystem}:${item.name}` : `${root.tier}:${item.name}`;
    }
    const shadowed = winners.has(item.name);
    winners.add(item.name);
    return { item, root, qualifiedName, shadowed };
  });
}
