/** Plugin, marketplace and git fixtures for the plugin command's tests (written into a sandbox). */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runCli, type RunResult, type Sandbox } from "../../../test/kit/cli.js";

export function writeFiles(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    const f = path.join(root, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  }
  return root;
}

/** A plugin tree: a manifest (name, version), one skill and one command. */
export function pluginFiles(name: string, version = "1.0.0", skill = "greet"): Record<string, string> {
  return {
    ".claude-plugin/plugin.json": JSON.stringify({ name, version, description: `the ${name} plugin` }, null, 2),
    [`skills/${skill}/SKILL.md`]: `---\ndescription: ${name}'s ${skill} skill\n---\n${name.toUpperCase()} ${skill.toUpperCase()} BODY\n`,
    "commands/hello.md": `---\ndescription: say hello\n---\nSay hello from ${name}.\n`,
  };
}

/** A directory marketplace at `dir` listing `plugins` (each under plugins/<name>). */
export function marketplaceDir(dir: string, name: string, plugins: Array<{ name: string; version?: string; source?: unknown }>): string {
  const files: Record<string, string> = {
    ".claude-plugin/marketplace.json": JSON.stringify({ name, owner: { name: "Test" }, plugins: plugins.map((p) => ({ name: p.name, source: p.source ?? `./plugins/${p.name}` })) }, null, 2),
  };
  for (const p of plugins) if (p.source === undefined) for (const [rel, t] of Object.entries(pluginFiles(p.name, p.version))) files[`plugins/${p.name}/${rel}`] = t;
  return writeFiles(dir, files);
}

export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** Commit everything in `work` and push it to a new bare repository `bare` (returns `bare`). */
export function bareRepoOf(work: string, bare: string): string {
  git(work, "init", "-q");
  git(work, "add", "-A");
  git(work, "commit", "-qm", "init");
  git(path.dirname(bare), "init", "-q", "--bare", bare);
  git(work, "push", "-q", bare, "HEAD:main");
  git(bare, "symbolic-ref", "HEAD", "refs/heads/main");
  return bare;
}

/** `oceancode plugin …` in the sandbox (project: --root). */
export function plugin(sb: Sandbox, ...args: string[]): RunResult {
  return runCli(["plugin", ...args, "--root", sb.project], { env: sb.env, cwd: sb.project });
}

/** Every file under `dir` with its content hash, for "nothing changed" checks. */
export function treeHash(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isSymbolicLink()) out[path.relative(dir, p)] = `-> ${fs.readlinkSync(p)}`;
      else out[path.relative(dir, p)] = `${fs.statSync(p).mtimeMs}:${fs.readFileSync(p).toString("base64")}`;
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

export const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, "utf8"));
