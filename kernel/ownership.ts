/**
 * Whose is a file in the project: the user's own (the local tier, trusted) or the checkout's (the repo
 * tier, untrusted until `oceancode trust repo on`)? Local needs proof, everything else is repo:
 *   - its real path (every component resolved) is inside the project's real path, and no component
 *     from the project down to it is a symlink;
 *   - no folder between it and the repository's root holds a `.git` (a submodule or nested repository),
 *     and no part of its path is a gitlink or symlink in the index;
 *   - the repository's `.git` is not a symlink, and git answered (one `ls-files` for all files asked) that
 *     it is not tracked. No `.git` above the project (a downloaded archive), no git binary, "dubious
 *     ownership" or any other failure: repo, with the reason.
 * A file that does not exist is reported local (there is nothing to read; the question comes back when it does).
 */
import fs from "node:fs";
import path from "node:path";
import { gitSync } from "./git.js";

export type OwnershipTier = "local" | "repo";

export interface Ownership {
  tier: OwnershipTier;
  /** why it is the repo tier ("… is a symlink", "git could not answer: …"); absent for local */
  reason?: string;
  /** what kind of reason: "tracked" is the ordinary case, every other one is worth a notice */
  kind?: "tracked" | "symlink" | "outside" | "nested" | "git";
}

/** The folder holding the `.git` nearest above (or at) `dir`, if any. */
export function repositoryRoot(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (exists(path.join(d, ".git"))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The first line of git's complaint, without its "fatal: " prefix. */
function gitReason(stderr: string, error?: Error): string {
  if (error) return (error as NodeJS.ErrnoException).code === "ENOENT" ? "git is not installed" : error.message;
  const line = stderr.split("\n").map((l) => l.trim()).find(Boolean) ?? "git failed";
  const m = /detected dubious ownership/i.test(stderr) ? "dubious ownership (the repository belongs to another user)" : line.replace(/^(fatal|error): /, "");
  return m.length > 160 ? `${m.slice(0, 157)}...` : m;
}

/** Path checks that need no git: the file's components from the project down, and nested repositories. */
function pathProblem(project: string, realProject: string, file: string, root: string | undefined): Omit<Ownership, "tier"> | undefined {
  const rel = path.relative(project, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return { kind: "outside", reason: `${file} is outside the project` };
  let at = project;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    at = path.join(at, part);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(at);
    } catch {
      return undefined; // the rest does not exist yet
    }
    if (st.isSymbolicLink()) return { kind: "symlink", reason: `${at} is a symlink` };
    if (st.isDirectory() && at !== root && exists(path.join(at, ".git"))) return { kind: "nested", reason: `${at} is a nested repository or submodule` };
  }
  const real = realpath(file);
  if (real && !inside(realProject, real)) return { kind: "outside", reason: `${file} resolves outside the project (${real})` };
  return undefined;
}

/**
 * The tier of each of `files` (absolute paths under `project`; a folder stands for everything in it).
 * One git call for all of them.
 */
export function projectOwnership(project: string, files: readonly string[]): Map<string, Ownership> {
  const out = new Map<string, Ownership>();
  const proj = path.resolve(project);
  const realProject = realpath(proj) ?? proj;
  const root = repositoryRoot(proj);
  const asked: string[] = [];
  for (const f of files.map((x) => path.resolve(x))) {
    if (!exists(f)) {
      out.set(f, { tier: "local" });
      continue;
    }
    const problem = pathProblem(proj, realProject, f, root);
    if (problem) out.set(f, { ...problem, tier: "repo" });
    else asked.push(f);
  }
  if (!asked.length) return out;
  const failAll = (reason: string) => {
    for (const f of asked) out.set(f, { tier: "repo", kind: "git", reason });
    return out;
  };
  if (!root) return failAll(`${proj} is not in a git repository, so nothing shows its files are yours (a downloaded archive?)`);
  const dotGit = path.join(root, ".git");
  if (fs.lstatSync(dotGit).isSymbolicLink()) {
    for (const f of asked) out.set(f, { tier: "repo", kind: "symlink", reason: `${dotGit} is a symlink` });
    return out;
  }
  // pathspecs: each file and every folder on its way from the project, so a gitlink or a symlink that
  // the index holds for one of them is listed too; literal, so no name is read as a glob
  const specs = new Set<string>();
  for (const f of asked) {
    for (let d = f; d !== proj && inside(proj, d); d = path.dirname(d)) specs.add(path.relative(root, d));
  }
  const r = gitSync(["-C", root, `--work-tree=${root}`, "--literal-pathspecs", "ls-files", "-z", "--stage", "--full-name", "--", ...specs]);
  if (r.status !== 0 || r.error) return failAll(`git could not answer: ${gitReason(r.stderr, r.error)}`);
  const indexed = r.stdout
    .split("\0")
    .filter(Boolean)
    .map((line) => ({ mode: line.slice(0, 6), file: line.slice(line.indexOf("\t") + 1) }));
  for (const f of asked) {
    const rel = path.relative(root, f).split(path.sep).join("/");
    const hit = indexed.find((e) => e.file === rel || e.file.startsWith(`${rel}/`) || rel.startsWith(`${e.file}/`));
    if (!hit) out.set(f, { tier: "local" });
    else if (hit.mode === "160000") out.set(f, { tier: "repo", kind: "nested", reason: `${path.join(root, hit.file)} is a submodule` });
    else out.set(f, { tier: "repo", kind: "tracked", reason: `${path.relative(proj, f) || f} is tracked by the checkout` });
  }
  return out;
}

/** One file's tier (see projectOwnership). */
export function ownershipOf(project: string, file: string): Ownership {
  return projectOwnership(project, [file]).get(path.resolve(file))!;
}
