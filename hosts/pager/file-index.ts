/**
 * The `@` picker's list of the project's files and folders: read once (git ls-files through the kernel's
 * inert git, else a walk that honours .gitignore), kept, and searched with fuzzysort over prepared
 * targets, so a keystroke on a 100k-file tree costs a search, never a re-read.
 */
import path from "node:path";
import fuzzysort from "fuzzysort";
import { gitBuffer } from "../../kernel/api.js";
import { DEFAULT_SKIP } from "../../extensions/tools/api.js";
import { walkFiles } from "../../extensions/tools/kit.js";

/** a guard against enormous trees (the walk; git lists what it tracks) */
export const MAX_INDEXED = 500_000;

export interface FileHit {
  /** "/"-separated, relative to the project; a folder ends with "/" */
  path: string;
  dir: boolean;
}

export class FileIndex {
  private targets?: Fuzzysort.Prepared[];
  private loading?: Promise<void>;
  /** how the list was read, for the bench and the docs */
  source: "git" | "walk" | undefined;

  constructor(private readonly root: string) {}

  get ready(): boolean {
    return this.targets !== undefined;
  }

  /** Read the list (once; later calls share the first). */
  load(): Promise<void> {
    this.loading ??= this.read().then((paths) => {
      this.targets = paths.map((p) => fuzzysort.prepare(p));
    });
    return this.loading;
  }

  /** Forget the list (files were added or removed): the next load reads it again. */
  invalidate(): void {
    this.loading = undefined;
    this.targets = undefined;
  }

  /** The best `limit` matches for `query` (the first entries when it is empty); [] before load(). */
  search(query: string, limit = 8): FileHit[] {
    const t = this.targets;
    if (!t) return [];
    const hits = query ? fuzzysort.go(query, t, { limit }).map((r) => r.target) : t.slice(0, limit).map((p) => p.target);
    return hits.map((p) => ({ path: p, dir: p.endsWith("/") }));
  }

  private async read(): Promise<string[]> {
    let files: string[] | undefined;
    try {
      // tracked and untracked-but-not-ignored files, NUL-separated (names may hold newlines)
      const out = await gitBuffer(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: this.root, timeoutMs: 20_000 });
      files = out.toString("utf8").split("\0").filter(Boolean);
      this.source = "git";
    } catch {
      files = undefined;
    }
    if (!files) {
      files = [];
      const list = files;
      walkFiles(this.root, { gitignore: true, skipDirs: DEFAULT_SKIP, maxFiles: MAX_INDEXED }, (_abs, rel) => {
        list.push(rel);
      });
      this.source = "walk";
    }
    return withFolders(files.slice(0, MAX_INDEXED));
  }
}

/** The files plus each folder they are in (as "dir/"), folders first at each depth. */
export function withFolders(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const f of files) {
    let d = path.posix.dirname(f);
    while (d !== "." && d !== "/" && !dirs.has(d)) {
      dirs.add(d);
      d = path.posix.dirname(d);
    }
  }
  return [...[...dirs].sort().map((d) => `${d}/`), ...files];
}
