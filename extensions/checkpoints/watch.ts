/**
 * Which paths of a work tree changed since the last look, so a shell step's snapshot costs what the step
 * touched, not the tree: one inotify watch per directory (fs.watch, not recursive: excluded and ignored
 * directories such as node_modules are never watched), the changed names collected in a set.
 *
 * All fs.watch handles of a process share one inotify queue, which delivers events in order. `fence()`
 * writes a file in a watched directory of our own and waits for its event: every change made before the
 * fence (the finished shell command's writes) has then been collected.
 *
 * A directory that appears is watched when it is next taken (its files are reported with it, as a whole);
 * a watch that cannot be added (the inotify limit) or an event without a name makes the next take a full
 * one: the caller scans the whole tree as if there were no watcher.
 */
import fs from "node:fs";
import path from "node:path";

export interface Taken {
  /** work-tree-relative paths (files or directories) changed since the last take */
  paths: string[];
  /** the watcher lost track: scan the whole tree */
  full: boolean;
}

export class TreeWatcher {
  private readonly watches = new Map<string, { w: fs.FSWatcher; ino: number }>();
  private dirty = new Set<string>();
  private lost = false;
  private fenceWatch: fs.FSWatcher | undefined;
  private fenceSeq = 0;
  private fenceWaiters = new Map<string, () => void>();

  constructor(
    readonly root: string,
    private readonly fenceDir: string,
    /** work-tree-relative directory that is never watched (excluded, ignored) */
    private readonly skipDir: (rel: string) => boolean,
  ) {}

  /** Watch every directory of the tree that is not skipped; false when the watches cannot be had. */
  start(): boolean {
    try {
      fs.mkdirSync(this.fenceDir, { recursive: true });
      this.fenceWatch = fs.watch(this.fenceDir, { persistent: false }, (_e, name) => {
        const w = name ? this.fenceWaiters.get(String(name)) : undefined;
        if (w) w();
      });
      this.fenceWatch.on("error", () => this.markLost());
      this.watchTree("");
      return !this.lost;
    } catch {
      this.close();
      return false;
    }
  }

  private markLost(): void {
    this.lost = true;
  }

  /** Watch `rel` and the directories under it (a walk of that subtree only). */
  private watchTree(rel: string): void {
    const stack = [rel];
    while (stack.length) {
      const dir = stack.pop()!;
      if (this.watches.has(dir)) continue;
      const abs = path.join(this.root, dir);
      let entries: fs.Dirent[];
      try {
        const w = fs.watch(abs, { persistent: false }, (_e, name) => {
          if (name === null || name === undefined) this.markLost();
          else this.dirty.add(dir ? `${dir}/${String(name)}` : String(name));
        });
        w.on("error", () => {
          // the directory went away (or cannot be read): its parent's event names it
          w.close();
          this.watches.delete(dir);
        });
        this.watches.set(dir, { w, ino: fs.statSync(abs).ino });
        entries = fs.readdirSync(abs, { withFileTypes: true });
      } catch (e) {
        // ENOSPC: the inotify limit; anything else: a directory that vanished meanwhile
        if ((e as NodeJS.ErrnoException).code === "ENOSPC") throw e;
        continue;
      }
      for (const d of entries) {
        if (!d.isDirectory()) continue;
        const child = dir ? `${dir}/${d.name}` : d.name;
        if (!this.skipDir(child)) stack.push(child);
      }
    }
  }

  /** Drop the watches at and under `rel` (a directory removed or renamed away: its inode's watch would report old names). */
  private unwatch(rel: string): void {
    for (const [dir, { w }] of this.watches) {
      if (dir === rel || dir.startsWith(`${rel}/`)) {
        w.close();
        this.watches.delete(dir);
      }
    }
  }

  /** Resolves once every change made before this call has been collected. */
  fence(timeoutMs = 2000): Promise<void> {
    if (!this.fenceWatch) return Promise.resolve();
    const name = `f${process.pid}-${++this.fenceSeq}`;
    const file = path.join(this.fenceDir, name);
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.fenceWaiters.delete(name);
        fs.rm(file, { force: true }, () => undefined);
        resolve();
      };
      // no event in time: the queue cannot be trusted, so the next take is a full one
      const timer = setTimeout(() => {
        this.markLost();
        done();
      }, timeoutMs); // kept referenced: the watches are not, and the process must live until the event comes
      this.fenceWaiters.set(name, done);
      try {
        fs.writeFileSync(file, "");
      } catch {
        this.markLost();
        done();
      }
    });
  }

  /** What changed since the last take; new directories are watched from now on, vanished ones dropped. */
  take(): Taken {
    const paths: string[] = [];
    const names = [...this.dirty];
    this.dirty = new Set();
    for (const p of names) {
      if (this.skipDir(p)) continue;
      let st: fs.Stats;
      try {
        st = fs.statSync(path.join(this.root, p));
      } catch {
        this.unwatch(p); // gone: git drops what was under it
        paths.push(p);
        continue;
      }
      if (st.isDirectory()) {
        // the same directory (its own watch reports its entries): nothing to scan; a new or replaced one is scanned whole
        if (this.watches.get(p)?.ino === st.ino) continue;
        this.unwatch(p); // renamed in from elsewhere: no watch keeps its old names
        try {
          this.watchTree(p);
        } catch {
          this.markLost();
        }
      }
      paths.push(p);
    }
    const full = this.lost;
    this.lost = false;
    return { paths, full };
  }

  get size(): number {
    return this.watches.size;
  }

  close(): void {
    for (const { w } of this.watches.values()) w.close();
    this.watches.clear();
    this.fenceWatch?.close();
    this.fenceWatch = undefined;
    for (const w of this.fenceWaiters.values()) w();
  }
}
