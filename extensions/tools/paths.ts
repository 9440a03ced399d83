/**
 * How a file path given to a tool resolves: `refs` aliases (`@name/...`), `~`, symlink-aware containment
 * and the secret-file rule. Published in `oceancode/api/tools` (api.ts) so the permissions extension and
 * third-party tools resolve paths exactly as the core tools do. Pure functions over node:fs/path.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** `refs` config: alias name -> directory (absolute, `~/...`, or relative to the project). */
export type Refs = Readonly<Record<string, string>>;

export interface ResolvedToolPath {
  /** absolute, normalised path the tool will touch */
  path: string;
  /** set when the input used a known `@name/...` alias */
  ref?: {
    name: string;
    /** the alias root, absolute */
    root: string;
    /** false when the path walked out of its root (`@name/../x`): treat it like any outside path */
    inside: boolean;
  };
}

/** Expand a `refs` root to an absolute directory. */
export function refRoot(dir: string, project: string, home: string = os.homedir()): string {
  if (dir === "~") return home;
  if (dir.startsWith("~/")) return path.join(home, dir.slice(2));
  return path.resolve(project, dir);
}

/**
 * Resolve a path given to a file tool: `@name/rest` with a known alias expands to `<refs[name]>/rest`;
 * an unknown alias stays literal (relative to cwd); `~/` expands to home; relative paths resolve against cwd.
 */
export function resolveToolPath(input: string, opts: { cwd: string; refs?: Refs; project?: string; home?: string }): ResolvedToolPath {
  const home = opts.home ?? os.homedir();
  const m = /^@([A-Za-z0-9_.-]+)(?:\/(.*))?$/s.exec(input);
  if (m && opts.refs && Object.prototype.hasOwnProperty.call(opts.refs, m[1]!)) {
    const name = m[1]!;
    const root = refRoot(opts.refs[name]!, opts.project ?? opts.cwd, home);
    const p = path.resolve(root, m[2] ?? "");
    return { path: p, ref: { name, root, inside: isInside(p, root) } };
  }
  if (input === "~") return { path: home };
  if (input.startsWith("~/")) return { path: path.join(home, input.slice(2)) };
  return { path: path.resolve(opts.cwd, input) };
}

/** Real path of p, or of its deepest existing ancestor joined with the rest (for paths not yet created). */
export function realPathLoose(p: string): string {
  const abs = path.resolve(p);
  const rest: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(cur), ...rest.reverse());
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return abs;
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}

/** Is `p` inside `root` (or equal to it)? Checked lexically and after resolving symlinks (escape detection). */
export function isInside(p: string, root: string): boolean {
  const within = (a: string, r: string): boolean => {
    const rel = path.relative(r, a);
    return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
  };
  return within(path.resolve(p), path.resolve(root)) && within(realPathLoose(p), realPathLoose(root));
}

/** `.env`, `*.env`, `*.env.*` hold secrets and are never read; `.env.example` is a template and reads. */
export function isSecretEnvFile(file: string): boolean {
  const base = path.basename(file).toLowerCase();
  if (base === ".env.example" || base.endsWith(".env.example")) return false;
  return base.endsWith(".env") || base.includes(".env.");
}
