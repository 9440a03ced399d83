/**
 * What a shell command changed, found lazily: a private git index and object store (never the user's own
 * .git) with the project as its work tree. Before the command the index is brought up to date and
 * `write-tree` records the tree; after it the same again, and `diff-tree` names the changed paths. A
 * changed file's old content is read from the first tree's blob only then: nothing is copied for files
 * the command did not touch.
 *
 * Bringing the index up to date costs what changed, not the tree: a TreeWatcher (watch.ts) names the paths
 * changed since the last look, and only those are re-added (`git add -A` / `git rm --cached` on them). The
 * first look of a process (and any look after the watcher lost track) is a full `git add -A`, which
 * re-hashes only files whose stat changed since the store last saw them; in a git work tree the store
 * borrows the project's own objects (read-only, through `objects/info/alternates`), so a first scan writes
 * no object the project already has.
 */
import { gitBuffer } from "../../kernel/api.js";
import fs from "node:fs";
import path from "node:path";
import { TreeWatcher } from "./watch.js";

/** Paths never scanned (beside the project's own .gitignore). */
const EXCLUDE = ["node_modules/", ".git/", ".oceancode/checkpoints/"];
const SKIP_DIRS = new Set(["node_modules", ".git"]);

export interface ShadowChange {
  /** absolute path */
  file: string;
  /** the old content's blob id in the shadow store; null: the file did not exist */
  beforeBlob: string | null;
}

export class ShadowRepo {
  private ready: Promise<boolean> | undefined;
  constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {}

  private chain: Promise<unknown> = Promise.resolve();
  /** undefined: not started; null: watching is not possible here (every look is a full scan) */
  private watcher: TreeWatcher | null | undefined;
  private lastTree: string | undefined;
  /** directories git ignores (relative), never watched */
  private ignoredDirs = new Set<string>();
  /** what the last looks cost, for the bench and the log: full scans and paths re-added */
  readonly stats = { full: 0, incremental: 0, paths: 0 };

  /** One git command at a time on this index (parallel shell calls share it). */
  private git(args: string[], opts: { buffer?: boolean; input?: string } = {}): Promise<Buffer> {
    const run = this.chain.then(() => this.gitNow(args, opts));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private gitNow(args: string[], opts: { buffer?: boolean; bare?: boolean; input?: string } = {}): Promise<Buffer> {
    const where = opts.bare ? [] : ["--git-dir", this.gitDir, "--work-tree", this.workTree];
    // kernel/git.ts: nothing of the project's git config, hooks or environment runs from here
    return gitBuffer([...where, "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.untrackedCache=true", "-c", "gc.auto=0", "-c", "advice.addIgnoredFile=false", ...args], {
      cwd: this.workTree,
      ...(opts.input !== undefined ? { input: opts.input } : {}),
    });
  }

  /** Create the private store once; false when git is not available. */
  init(): Promise<boolean> {
    this.ready ??= (async () => {
      try {
        if (!fs.existsSync(path.join(this.gitDir, "HEAD"))) {
          fs.mkdirSync(this.gitDir, { recursive: true });
          await this.gitNow(["init", "-q", "--bare", this.gitDir], { bare: true });
        }
        fs.mkdirSync(path.join(this.gitDir, "info"), { recursive: true });
        fs.writeFileSync(path.join(this.gitDir, "info", "exclude"), `${EXCLUDE.join("\n")}\n`);
        this.borrowObjects();
        return true;
      } catch {
        return false;
      }
    })();
    return this.ready;
  }

  /**
   * A git work tree's own objects, read through alternates (never written): a first scan then writes only
   * what the project's object store lacks. Only a plain `.git` directory at the work tree's top is used.
   */
  private borrowObjects(): void {
    const objects = path.join(this.workTree, ".git", "objects");
    const alt = path.join(this.gitDir, "objects", "info", "alternates");
    try {
      if (fs.statSync(objects).isDirectory() && !fs.existsSync(alt)) {
        fs.mkdirSync(path.dirname(alt), { recursive: true });
        fs.writeFileSync(alt, `${objects}\n`);
      }
    } catch {
      // no .git directory here (a plain tree, a worktree's .git file): nothing to borrow
    }
  }

  /** Record the whole work tree as it is now (a stat walk; re-hashes what changed); returns the tree id. */
  async scan(): Promise<string> {
    await this.git(["add", "-A", "--ignore-errors", "."]).catch(() => undefined);
    this.stats.full += 1;
    this.lastTree = (await this.git(["write-tree"])).toString().trim();
    return this.lastTree;
  }

  /**
   * The work tree's tree id now, at the cost of what changed since the last look (see the header).
   * `settle`: first wait until the watcher has collected every change made so far (after a command ran).
   */
  async tree(settle = false): Promise<string> {
    if (this.watcher === undefined) return this.startWatching();
    if (this.watcher === null) return this.scan();
    if (settle) await this.watcher.fence();
    const taken = this.watcher.take();
    if (taken.full || this.lastTree === undefined) return this.scan();
    if (!taken.paths.length) return this.lastTree;
    const present: string[] = [];
    const gone: string[] = [];
    for (const p of taken.paths) (fs.existsSync(path.join(this.workTree, p)) ? present : gone).push(`:(literal)${p}\0`);
    // an ignored path makes add exit 1 after adding the rest; a gone path must leave the index, if it was there
    if (present.length) await this.git(["add", "-A", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"], { input: present.join("") }).catch(() => undefined);
    if (gone.length) await this.git(["rm", "--cached", "-r", "-q", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"], { input: gone.join("") }).catch(() => undefined);
    this.stats.incremental += 1;
    this.stats.paths += taken.paths.length;
    this.lastTree = (await this.git(["write-tree"])).toString().trim();
    return this.lastTree;
  }

  /** The first look: watch the tree (before scanning it, so nothing changes unseen), then scan it whole. */
  private async startWatching(): Promise<string> {
    try {
      const out = await this.git(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"]);
      for (const p of out.toString().split("\0")) if (p.endsWith("/")) this.ignoredDirs.add(p.slice(0, -1));
    } catch {
      // no list: every directory is watched
    }
    const w = new TreeWatcher(this.workTree, path.join(this.gitDir, "fence"), (rel) => SKIP_DIRS.has(path.basename(rel)) || rel === ".oceancode/checkpoints" || this.ignoredDirs.has(rel));
    this.watcher = w.start() ? w : null;
    if (!this.watcher) w.close();
    return this.scan();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Paths that differ between two scans, with their blob in the first (null: added). */
  async diff(before: string, after: string): Promise<ShadowChange[]> {
    if (before === after) return [];
    const out = (await this.git(["diff-tree", "-r", "-z", "--no-renames", "--raw", before, after])).toString();
    // -z raw: ":<mode> <mode> <sha> <sha> <status>\0<path>\0"
    const parts = out.split("\0");
    const changes: ShadowChange[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const meta = parts[i]!.trim();
      const rel = parts[i + 1]!;
      if (!meta.startsWith(":")) break;
      const [oldMode, newMode, oldSha, , status] = meta.slice(1).split(" ");
      // links and submodules are not file contents this store restores
      if (/^(120000|160000)$/.test(oldMode ?? "") || /^(120000|160000)$/.test(newMode ?? "")) continue;
      changes.push({ file: path.join(this.workTree, rel), beforeBlob: status === "A" || /^0+$/.test(oldSha ?? "") ? null : oldSha! });
    }
    return changes;
  }

  /** The contents of several blobs with one `git cat-file --batch` (one process however many files changed). */
  blobs(ids: string[]): Promise<Map<string, Buffer>> {
    if (!ids.length) return Promise.resolve(new Map());
    const run = this.chain.then(
      () =>
        gitBuffer(["--git-dir", this.gitDir, "cat-file", "--batch"], { cwd: this.workTree, input: `${ids.join("\n")}\n` }).then((stdout) => {
          const out = new Map<string, Buffer>();
          let at = 0;
          while (at < stdout.length) {
            const nl = stdout.indexOf(10, at);
            if (nl < 0) break;
            const [id, type, size] = stdout.subarray(at, nl).toString().split(" ");
            if (type !== "blob") {
              at = nl + 1;
              continue;
            }
            const n = Number(size);
            out.set(id!, Buffer.from(stdout.subarray(nl + 1, nl + 1 + n)));
            at = nl + 1 + n + 1;
          }
          return out;
        }),
    );
    this.chain = run.catch(() => undefined);
    return run;
  }
}
