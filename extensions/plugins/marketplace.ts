/**
 * Marketplaces: a directory (or git repository) holding .claude-plugin/marketplace.json
 * `{name, owner, plugins: [{name, source, version?}]}`. A directory is read where it is; a git
 * repository is cloned (depth 1) into ~/.oceancode/plugins/marketplaces/<name>. A plugin entry's
 * `source` is a path inside the marketplace (never outside it) or a git source.
 */
import fs from "node:fs";
import path from "node:path";
import { type KnownMarketplace } from "./api.js";
import { isValidName } from "./kit/shared.js";
import { isDir, reallyWithin, show, within } from "./files.js";
import { clone, gitUrl, refresh } from "./git.js";
import type { PluginStore } from "./store.js";
import { PluginInvalid } from "./errors.js";

export interface MarketEntry {
  name: string;
  source: unknown;
  version?: string;
}

export interface MarketDoc {
  name: string;
  plugins: MarketEntry[];
  pluginRoot?: string;
  file: string;
}

/** Where a marketplace entry's plugin lives. */
export type EntrySource = { kind: "dir"; dir: string } | { kind: "git"; url: string; ref?: string; subdir?: string };

export function marketplaceFile(dir: string): string {
  return path.join(dir, ".claude-plugin", "marketplace.json");
}

function fail(msg: string): never {
  throw PluginInvalid.wrap(msg);
}

/** Read and check a marketplace directory; every failure names what was missing. */
export function readMarketplace(dir: string): MarketDoc {
  const file = marketplaceFile(dir);
  if (!fs.existsSync(file)) fail(`${show(dir)} is not a marketplace: ${show(path.join(".claude-plugin", "marketplace.json"))} is missing`);
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    return fail(`${show(file)} is not valid JSON (${show((e as Error).message)})`);
  }
  const o = (v && typeof v === "object" && !Array.isArray(v) ? v : {}) as Record<string, unknown>;
  if (typeof o.name !== "string") fail(`${show(file)}: name: missing (the marketplace's name is required)`);
  if (!isValidName(o.name)) fail(`${show(file)}: name: '${show(String(o.name))}' is not a valid name (letters, digits, . _ -; no path separators)`);
  if (!Array.isArray(o.plugins)) fail(`${show(file)}: plugins: missing (expected an array of {name, source})`);
  const plugins = (o.plugins as unknown[]).flatMap((p): MarketEntry[] => {
    const e = p as Record<string, unknown> | null;
    return e && typeof e.name === "string" ? [{ name: e.name, source: e.source, ...(typeof e.version === "string" ? { version: e.version } : {}) }] : [];
  });
  const meta = o.metadata as Record<string, unknown> | undefined;
  return { name: o.name as string, plugins, file, ...(typeof meta?.pluginRoot === "string" ? { pluginRoot: meta.pluginRoot } : {}) };
}

/** Resolve an entry's source; a path that leaves the marketplace (../, an absolute path, a symlink out) is refused. */
export function entrySource(marketDir: string, doc: MarketDoc, entry: MarketEntry): EntrySource {
  const where = `${show(doc.file)}: plugin '${show(entry.name)}'`;
  const s = entry.source;
  if (typeof s === "string" && !gitLike(s)) {
    const base = doc.pluginRoot && !s.startsWith(".//") && !s.startsWith("../") ? path.resolve(marketDir, doc.pluginRoot) : marketDir;
    if (path.isAbsolute(s)) fail(`${where}: source '${show(s)}' is an absolute path; it must be a path inside the marketplace`);
    const dir = path.resolve(base, s);
    if (!within(marketDir, dir)) fail(`${where}: source '${show(s)}' points outside the marketplace`);
    if (!isDir(dir)) fail(`${where}: source '${show(s)}' is not a directory in the marketplace`);
    if (!reallyWithin(marketDir, dir)) fail(`${where}: source '${show(s)}' leads outside the marketplace through a symlink`);
    return { kind: "dir", dir };
  }
  if (typeof s === "string") return { kind: "git", url: s };
  const o = (s && typeof s === "object" ? s : {}) as Record<string, unknown>;
  const ref = typeof o.ref === "string" ? o.ref : undefined;
  const subdir = typeof o.path === "string" ? o.path : undefined;
  if (o.source === "github" && typeof o.repo === "string" && /^[\w.-]+\/[\w.-]+$/.test(o.repo)) return { kind: "git", url: `https://github.com/${o.repo}.git`, ref, subdir };
  if ((o.source === "url" || o.source === "git") && typeof o.url === "string") return { kind: "git", url: o.url, ref, subdir };
  return fail(`${where}: source is not a path, a github repo or a git url`);
}

function gitLike(s: string): boolean {
  return /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)/.test(s);
}

const now = () => new Date().toISOString();

/** Leave no empty scratch folder behind a failed add. */
export function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty (another process is using it) or already gone
  }
}

/** Register a marketplace; nothing is written (and a clone is removed) when it is not one. */
export function addMarketplace(store: PluginStore, spec: string, cwd: string): { name: string; market: KnownMarketplace; plugins: number } {
  // a path to the marketplace.json itself stands for the marketplace folder (two levels up)
  const given = path.resolve(cwd, spec);
  const abs = path.basename(given) === "marketplace.json" && path.basename(path.dirname(given)) === ".claude-plugin" ? path.dirname(path.dirname(given)) : given;
  let market: KnownMarketplace;
  let doc: MarketDoc;
  let cloned: string | undefined;
  if (isDir(abs) && fs.existsSync(marketplaceFile(abs))) {
    doc = readMarketplace(abs);
    market = { type: "directory", source: abs, path: abs, added_at: now() };
  } else {
    const url = gitUrl(spec, cwd);
    if (!url) return fail(isDir(abs) ? `${show(abs)} is not a marketplace: ${show(path.join(".claude-plugin", "marketplace.json"))} is missing (and it is not a git repository)` : `${show(spec)} is not a marketplace: no such directory, and not a git URL`);
    cloned = path.join(store.tmpDir, `market-${process.pid}-${Date.now()}`);
    try {
      clone(url, cloned);
      doc = readMarketplace(cloned);
    } catch (e) {
      fs.rmSync(cloned, { recursive: true, force: true });
      removeIfEmpty(store.tmpDir);
      throw e;
    }
    market = { type: "git", source: url, path: path.join(store.marketsDir, doc.name), added_at: now() };
  }
  try {
    store.locked(({ markets }) => {
      const prev = markets[doc.name];
      if (prev) fail(`a marketplace named '${doc.name}' is already registered (from ${show(prev.source)}); remove it first`);
      if (cloned) {
        fs.rmSync(market.path, { recursive: true, force: true });
        fs.mkdirSync(path.dirname(market.path), { recursive: true });
        fs.renameSync(cloned, market.path);
      }
      markets[doc.name] = market;
      store.writeMarkets(markets);
    });
  } finally {
    if (cloned) fs.rmSync(cloned, { recursive: true, force: true });
    removeIfEmpty(store.tmpDir);
  }
  return { name: doc.name, market, plugins: doc.plugins.length };
}

export function getMarketplace(store: PluginStore, name: string): KnownMarketplace {
  const m = store.readMarkets()[name];
  return m ?? fail(`no marketplace named '${show(name)}' is registered (oceancode plugin marketplace list)`);
}

/** git: fetch the newest commit; directory: re-read. Either way the marketplace must still be one. */
export function updateMarketplace(store: PluginStore, name: string): { market: KnownMarketplace; plugins: number } {
  const m = getMarketplace(store, name);
  if (m.type === "git" && isDir(m.path)) refresh(m.path);
  const doc = readMarketplace(m.path);
  const market = store.locked(({ markets }) => {
    const cur = markets[name] ?? fail(`no marketplace named '${show(name)}' is registered`);
    cur.updated_at = now();
    store.writeMarkets(markets);
    return cur;
  });
  return { market, plugins: doc.plugins.length };
}

export function removeMarketplace(store: PluginStore, name: string): KnownMarketplace {
  return store.locked(({ markets }) => {
    const m = markets[name] ?? fail(`no marketplace named '${show(name)}' is registered`);
    delete markets[name];
    store.writeMarkets(markets);
    // only a clone we made is deleted; a directory marketplace is the user's own
    if (m.type === "git" && within(store.marketsDir, m.path) && path.resolve(m.path) !== path.resolve(store.marketsDir)) fs.rmSync(m.path, { recursive: true, force: true });
    return m;
  });
}
