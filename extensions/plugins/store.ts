/**
 * oceancode's plugin store under ~/.oceancode/plugins: installed.json, known_marketplaces.json, the
 * cache of installed copies and the marketplaces cloned from git. Every change runs under one lock file
 * (.lock), re-reads the files inside it and writes them atomically, so two processes never lose an
 * install; a file that does not parse is refused, never overwritten.
 */
import path from "node:path";
import { readStoreFile, withLock } from "./files.js";
import type { InstalledFile, InstalledPlugin, KnownMarketplacesFile } from "./api.js";
import { writeFileAtomic } from "../../kernel/api.js";

export class PluginStore {
  readonly dir: string;
  readonly installedFile: string;
  readonly marketsFile: string;
  readonly cacheDir: string;
  readonly marketsDir: string;
  readonly tmpDir: string;

  constructor(readonly home: string) {
    this.dir = path.join(home, ".oceancode", "plugins");
    this.installedFile = path.join(this.dir, "installed.json");
    this.marketsFile = path.join(this.dir, "known_marketplaces.json");
    this.cacheDir = path.join(this.dir, "cache");
    this.marketsDir = path.join(this.dir, "marketplaces");
    this.tmpDir = path.join(this.dir, ".tmp");
  }

  readInstalled(): InstalledFile {
    const f = readStoreFile<Partial<InstalledFile>>(this.installedFile, () => ({ plugins: [] }));
    const plugins = Array.isArray(f.plugins) ? f.plugins.filter((p): p is InstalledPlugin => !!p && typeof p.name === "string" && typeof p.path === "string") : [];
    return { ...f, plugins };
  }

  readMarkets(): KnownMarketplacesFile {
    return readStoreFile<KnownMarketplacesFile>(this.marketsFile, () => ({}));
  }

  writeInstalled(f: InstalledFile): void {
    writeFileAtomic(this.installedFile, `${JSON.stringify(f, null, 2)}\n`);
  }

  writeMarkets(f: KnownMarketplacesFile): void {
    writeFileAtomic(this.marketsFile, `${JSON.stringify(f, null, 2)}\n`);
  }

  /** Run `fn` under the store's lock. Both files are read (and so checked) before `fn` runs. */
  locked<T>(fn: (s: { installed: InstalledFile; markets: KnownMarketplacesFile }) => T): T {
    return withLock(path.join(this.dir, ".lock"), () => fn({ installed: this.readInstalled(), markets: this.readMarkets() }));
  }

  find(name: string): InstalledPlugin | undefined {
    return this.readInstalled().plugins.find((p) => p.name === name);
  }
}
