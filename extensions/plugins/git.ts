/**
 * The git a marketplace or a plugin source needs: a shallow clone and a refresh. Only ordinary transports
 * (file, https, http, ssh, git): a spec that starts with `-` or names a `<transport>::` helper is refused,
 * and git never prompts (kernel/git.ts: no GIT_* of the parent, no hook or fsmonitor of the clone runs).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gitSync } from "../../kernel/api.js";
import { isDir, show } from "./files.js";
import { PluginInvalid } from "./errors.js";

const REMOTE = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)/;

/** A local bare repository (HEAD + objects/), or a checkout (.git)? */
export function isLocalRepo(dir: string): boolean {
  return isDir(path.join(dir, ".git")) || (fs.existsSync(path.join(dir, "HEAD")) && isDir(path.join(dir, "objects")));
}

/** The URL to clone for a spec: a remote URL as it is; a local repository as a file:// URL; else undefined. */
export function gitUrl(spec: string, cwd: string): string | undefined {
  if (spec.startsWith("-") || spec.includes("::")) throw PluginInvalid.wrap(`'${show(spec)}' is not an accepted git source (no options, no transport helpers)`);
  if (REMOTE.test(spec)) return spec;
  const abs = path.resolve(cwd, spec);
  return isDir(abs) && isLocalRepo(abs) ? pathToFileURL(abs).href : undefined;
}

function run(args: string[], what: string): void {
  // kernel/git.ts, remote: hooks, fsmonitor and pagers pinned off; the user's own credentials and ssh kept
  const r = gitSync(args, { remote: true, timeoutMs: 120_000 });
  if (r.error) throw PluginInvalid.wrap(`${what}: git could not run (${r.error.message})`);
  if (r.status !== 0) throw PluginInvalid.wrap(`${what}: git ${args[0]} failed: ${show((r.stderr || r.stdout).trim().split("\n").slice(-2).join(" "))}`);
}

/** `git clone --depth 1` of `url` (optionally one ref) into `dest`. */
export function clone(url: string, dest: string, ref?: string): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  run(["clone", "--depth", "1", "--quiet", ...(ref ? ["--branch", ref] : []), "--", url, dest], `cloning ${show(url)}`);
}

/** Bring a shallow clone to its remote's newest commit (fetch + hard reset: the clone is ours, never edited). */
export function refresh(dir: string): void {
  run(["-C", dir, "fetch", "--depth", "1", "--quiet", "origin"], `updating ${show(dir)}`);
  run(["-C", dir, "reset", "--hard", "--quiet", "FETCH_HEAD"], `updating ${show(dir)}`);
}
