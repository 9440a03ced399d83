/**
 * What a shell command changed, found lazily: a private git index and object store (never the user's own
 * .git) with the project as its work tree. Before the command `git add -A` + `write-tree` records the
 * tree (git re-hashes only files whose stat changed since the last scan, so a step costs a stat walk plus
 * the files it touched, and the first scan of a session hashes the tree once); after it the same again,
 * and `diff-tree` names the changed paths. A changed file's old content is read from the first tree's
 * blob only then: nothing is copied for files the command did not touch.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Paths never scanned (beside the project's own .gitignore). */
const EXCLUDE = ["node_modules/", ".git/", ".oceancode/checkpoints/"];

export interface ShadowChange {
  /** absolute path */
  file: string;
  /** the old content's blob id in the shadow store; null: the file did not exist */
  beforeBlob: string | null;
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_TERMINAL_PROMPT = "0";
  return env;
}

export class ShadowRepo {
  private ready: Promise<boolean> | undefined;
  private readonly env = cleanEnv();
  constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {}

  private chain: Promise<unknown> = Promise.resolve();

  /** One git command at a time on this index (parallel shell calls share it). */
  private git(args: string[], opts: { buffer?: boolean } = {}): Promise<Buffer> {
    const run = this.chain.then(() => this.gitNow(args, opts));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private gitNow(args: string[], opts: { buffer?: boolean; bare?: boolean } = {}): Promise<Buffer> {
    const where = opts.bare ? [] : ["--git-dir", this.gitDir, "--work-tree", this.workTree];
    return new Promise((resolve, reject) => {
      execFile(
        "git",
        [...where, "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.untrackedCache=true", "-c", "gc.auto=0", ...args],
        { cwd: this.workTree, env: this.env, encoding: "buffer", maxBuffer: 1 << 30, windowsHide: true },
        (err, stdout, stderr) => (err ? reject(new Error(`git ${args[0]}: ${String(stderr).trim() || err.message}`)) : resolve(stdout)),
      );
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
        return true;
      } catch {
        return false;
      }
    })();
    return this.ready;
  }

  /** Record the work tree as it is now; returns the tree id. */
  async scan(): Promise<string> {
    await this.git(["add", "-A", "--ignore-errors", "."]).catch(() => undefined);
    return (await this.git(["write-tree"])).toString().trim();
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
        new Promise<Map<string, Buffer>>((resolve, reject) => {
          const child = execFile(
            "git",
            ["--git-dir", this.gitDir, "cat-file", "--batch"],
            { cwd: this.workTree, env: this.env, encoding: "buffer", maxBuffer: 1 << 30, windowsHide: true },
            (err, stdout) => {
              if (err) return reject(new Error(`git cat-file: ${err.message}`));
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
              resolve(out);
            },
          );
          child.stdin?.end(`${ids.join("\n")}\n`);
        }),
    );
    this.chain = run.catch(() => undefined);
    return run;
  }
}
