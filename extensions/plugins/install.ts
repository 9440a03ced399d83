/**
 * install / update / uninstall: a plugin directory (given as a path, found through a registered
 * marketplace, or in Claude Code's cache) is copied into ~/.oceancode/plugins/cache/<marketplace>/<name>/<version>/
 * and recorded in installed.json under the store's lock. Names and versions are single path segments;
 * the copy never follows a symlink out of the plugin.
 */
import fs from "node:fs";
import path from "node:path";
import { type InstalledPlugin } from "./api.js";
import { isValidName } from "./kit/shared.js";
import { copyTree, isDir, show, within } from "./files.js";
import { clone } from "./git.js";
import { checkManifest, isPlugin } from "./manifest-check.js";
import { entrySource, readMarketplace, removeIfEmpty, type MarketEntry } from "./marketplace.js";
import type { PluginStore } from "./store.js";
import { PluginInvalid } from "./errors.js";

const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$/;

function fail(msg: string): never {
  throw PluginInvalid.wrap(msg);
}

export interface CopyRequest {
  name: string;
  marketplace: string;
  srcDir: string;
  /** from the entry when the manifest has none */
  version?: string;
  trusted: boolean;
  enabled: boolean;
  source_path?: string;
  imported_from?: string;
  /** keep an existing record's enabled/trusted (update) */
  keepState?: boolean;
}

/** Is a spec a path (rather than `name` or `name@marketplace`)? */
export function isPathSpec(spec: string): boolean {
  return spec.includes("/") || spec.includes("\\") || spec.startsWith(".") || spec.startsWith("~");
}

/** Copy a plugin directory into the cache and record it (replacing an earlier copy of the same plugin). */
export function copyInstall(store: PluginStore, req: CopyRequest, warn: (m: string) => void): InstalledPlugin {
  if (!isValidName(req.name)) fail(`'${show(req.name)}' is not a valid plugin name (letters, digits, . _ -; no path separators)`);
  if (!isValidName(req.marketplace)) fail(`'${show(req.marketplace)}' is not a valid marketplace name`);
  if (!isDir(req.srcDir)) fail(`${show(req.srcDir)} is not a directory`);
  if (!isPlugin(req.srcDir)) fail(`${show(req.srcDir)} is not a plugin: it has no .claude-plugin/plugin.json and no skills/, commands/, agents/ or hooks/hooks.json`);
  const check = checkManifest(req.srcDir);
  if (check.problems.length) fail(`the plugin's manifest is invalid:\n  ${check.problems.join("\n  ")}`);
  const version = check.manifest?.version ?? req.version ?? "unversioned";
  if (!VERSION.test(version)) fail(`'${show(version)}' is not a valid version for ${req.name}`);
  return store.locked(({ installed }) => {
    const prev = installed.plugins.find((p) => p.name === req.name);
    if (prev && prev.marketplace !== req.marketplace) fail(`a plugin named '${req.name}' is already installed from '${show(prev.marketplace)}'; uninstall it first`);
    const dest = path.join(store.cacheDir, req.marketplace, req.name, version);
    if (!within(store.cacheDir, dest)) fail(`refusing to install outside ${show(store.cacheDir)}`);
    const tmp = `${dest}.tmp-${process.pid}-${Date.now()}`;
    try {
      copyTree(req.srcDir, tmp, warn);
      fs.rmSync(dest, { recursive: true, force: true });
      fs.renameSync(tmp, dest);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    const rec: InstalledPlugin = {
      name: req.name,
      path: dest,
      version,
      marketplace: req.marketplace,
      enabled: req.keepState && prev ? prev.enabled : req.enabled,
      trusted: req.keepState && prev ? prev.trusted : req.trusted,
      installed_at: new Date().toISOString(),
      ...(req.source_path ? { source_path: req.source_path } : {}),
      ...(req.imported_from ? { imported_from: req.imported_from } : {}),
    };
    installed.plugins = [...installed.plugins.filter((p) => p.name !== req.name), rec].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    store.writeInstalled(installed);
    if (prev && path.resolve(prev.path) !== path.resolve(dest)) removeCopy(store, prev.path);
    return rec;
  });
}

/** Delete an installed copy (only inside the cache) and the folders it leaves empty. */
function removeCopy(store: PluginStore, dir: string): void {
  if (!within(store.cacheDir, dir) || path.resolve(dir) === path.resolve(store.cacheDir)) return;
  fs.rmSync(dir, { recursive: true, force: true });
  for (let d = path.dirname(dir); within(store.cacheDir, d) && path.resolve(d) !== path.resolve(store.cacheDir); d = path.dirname(d)) {
    try {
      fs.rmdirSync(d);
    } catch {
      break;
    }
  }
}

/** Find `name` (or `name@marketplace`) among the registered marketplaces. */
function findEntry(store: PluginStore, spec: string, marketplace?: string): { market: string; dir: string; entry: MarketEntry } {
  const at = spec.lastIndexOf("@");
  const name = at > 0 ? spec.slice(0, at) : spec;
  const wanted = at > 0 ? spec.slice(at + 1) : marketplace;
  if (!isValidName(name)) fail(`'${show(name)}' is not a valid plugin name (letters, digits, . _ -; no path separators)`);
  if (wanted !== undefined && !isValidName(wanted)) fail(`'${show(wanted)}' is not a valid marketplace name`);
  const markets = store.readMarkets();
  const names = wanted !== undefined ? [wanted] : Object.keys(markets).sort();
  if (wanted !== undefined && !markets[wanted]) fail(`no marketplace named '${wanted}' is registered (oceancode plugin marketplace add <spec>)`);
  const hits: Array<{ market: string; dir: string; entry: MarketEntry }> = [];
  for (const m of names) {
    const dir = markets[m]!.path;
    const doc = readMarketplace(dir);
    const entry = doc.plugins.find((p) => p.name === name);
    if (entry) hits.push({ market: m, dir, entry });
  }
  if (hits.length === 0) {
    const folder = isDir(path.resolve(spec)) ? ` (to install the folder, pass a path: ./${spec})` : "";
    fail(`no registered marketplace lists a plugin named '${name}'${wanted ? ` (looked in '${wanted}')` : ""}${folder}`);
  }
  if (hits.length > 1) fail(`'${name}' is in several marketplaces (${hits.map((h) => h.market).join(", ")}): pass ${name}@<marketplace>`);
  return hits[0]!;
}

/** Install from a marketplace entry: a directory in the marketplace, or a git source cloned for the copy. */
function installEntry(store: PluginStore, hit: { market: string; dir: string; entry: MarketEntry }, base: Omit<CopyRequest, "name" | "marketplace" | "srcDir">, warn: (m: string) => void): InstalledPlugin {
  const doc = readMarketplace(hit.dir);
  const src = entrySource(hit.dir, doc, hit.entry);
  const common = { ...base, name: hit.entry.name, marketplace: hit.market, version: base.version ?? hit.entry.version };
  if (src.kind === "dir") return copyInstall(store, { ...common, srcDir: src.dir }, warn);
  const tmp = path.join(store.tmpDir, `plugin-${process.pid}-${Date.now()}`);
  try {
    clone(src.url, tmp, src.ref);
    const dir = src.subdir ? path.resolve(tmp, src.subdir) : tmp;
    if (!within(tmp, dir)) fail(`plugin '${hit.entry.name}': source path '${show(src.subdir ?? "")}' points outside its repository`);
    return copyInstall(store, { ...common, srcDir: dir }, warn);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    removeIfEmpty(store.tmpDir);
  }
}

export function install(store: PluginStore, spec: string, opts: { trust: boolean; marketplace?: string; cwd: string }, warn: (m: string) => void): InstalledPlugin {
  if (isPathSpec(spec)) {
    const dir = path.resolve(opts.cwd, spec.replace(/^~(?=\/|$)/, store.home));
    if (!isDir(dir)) fail(`${show(spec)}: no such directory`);
    const name = checkManifest(dir).manifest?.name ?? path.basename(dir);
    return copyInstall(store, { name, marketplace: opts.marketplace ?? "local", srcDir: dir, trusted: opts.trust, enabled: true, source_path: dir }, warn);
  }
  return installEntry(store, findEntry(store, spec, opts.marketplace), { trusted: opts.trust, enabled: true }, warn);
}

/** Re-copy from the plugin's marketplace (when it still lists it) or the directory it came from. */
export function update(store: PluginStore, name: string, warn: (m: string) => void): { before: InstalledPlugin; after: InstalledPlugin } {
  const before = store.find(name) ?? fail(`no plugin named '${show(name)}' is installed in oceancode's store`);
  const markets = store.readMarkets();
  const market = markets[before.marketplace];
  const entry = market ? readMarketplace(market.path).plugins.find((p) => p.name === name) : undefined;
  const keep = { trusted: before.trusted, enabled: before.enabled, keepState: true };
  if (market && entry) return { before, after: installEntry(store, { market: before.marketplace, dir: market.path, entry }, keep, warn) };
  if (before.source_path && isDir(before.source_path)) {
    const after = copyInstall(store, { ...keep, name, marketplace: before.marketplace, srcDir: before.source_path, source_path: before.source_path, ...(before.imported_from ? { imported_from: before.imported_from } : {}) }, warn);
    return { before, after };
  }
  return fail(`'${name}' has no source to update from (its marketplace '${show(before.marketplace)}' is not registered or no longer lists it)`);
}

export function uninstall(store: PluginStore, name: string): InstalledPlugin {
  return store.locked(({ installed }) => {
    const rec = installed.plugins.find((p) => p.name === name) ?? fail(`no plugin named '${show(name)}' is installed in oceancode's store`);
    installed.plugins = installed.plugins.filter((p) => p.name !== name);
    store.writeInstalled(installed);
    removeCopy(store, rec.path);
    return rec;
  });
}
