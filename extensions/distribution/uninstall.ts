/**
 * `oceancode uninstall [--purge] [--yes] [--dry-run]`: the plan first (the versions dir and its link; with
 * --purge the config, data, state and cache dirs and ~/.oceancode), asked on a terminal unless --yes,
 * refused without a terminal and without --yes. Only those paths are removed; a path that is a symlink is
 * removed as a link (what it points at is left alone), and rm never follows links inside a tree.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createInterface } from "node:readline/promises";
import type { CommandIO, Paths } from "../../kernel/api.js";
import { versionsDir } from "./kit/shared.js";

const USAGE = "usage: oceancode uninstall [--purge] [--yes] [--dry-run]";

export interface PlanItem {
  path: string;
  what: string;
  /** a symlink: only the link goes */
  link: boolean;
}

export function uninstallPlan(paths: Paths, env: NodeJS.ProcessEnv, purge: boolean): PlanItem[] {
  const cacheHome = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(paths.home, ".cache");
  const wanted: Array<[string, string]> = [[versionsDir(paths.dataDir), "installed versions and the current link"]];
  if (purge) {
    wanted.push([paths.configDir, "config"], [paths.dataDir, "data (sessions database, ledger)"], [paths.stateDir, "state"], [path.join(cacheHome, "oceancode"), "cache"], [paths.userOcDir, "user extensions, trust, plugins"]);
  }
  const out: PlanItem[] = [];
  for (const [p, what] of wanted) {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    // a purge of the data dir covers its versions dir
    if (out.some((o) => !o.link && p.startsWith(o.path + path.sep))) continue;
    const covered = out.findIndex((o) => o.path.startsWith(p + path.sep));
    if (covered >= 0) out.splice(covered, 1);
    out.push({ path: p, what, link: st.isSymbolicLink() });
  }
  return out;
}

/** An npm global install of this package: its root sits in a global node_modules (<prefix>/lib/node_modules/<name>). */
function npmGlobalHint(packageRoot: string): string | undefined {
  const parts = packageRoot.split(path.sep);
  const i = parts.lastIndexOf("node_modules");
  if (i > 0 && (parts[i - 1] === "lib" || process.platform === "win32")) return `the npm global install in ${packageRoot} stays: remove it with  npm uninstall -g ${parts.slice(i + 1).join("/")}`;
  return undefined;
}

export async function uninstallCommand(argv: string[], io: CommandIO, paths: Paths, packageRoot: string): Promise<number> {
  let purge: boolean, yes: boolean, dry: boolean;
  try {
    const { values } = parseArgs({ args: argv, strict: true, options: { purge: { type: "boolean" }, yes: { type: "boolean", short: "y" }, "dry-run": { type: "boolean" } } });
    [purge, yes, dry] = [values.purge === true, values.yes === true, values["dry-run"] === true];
  } catch (e) {
    io.stderr.write(`oceancode uninstall: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const plan = uninstallPlan(paths, io.env, purge);
  const hint = npmGlobalHint(fs.realpathSync(packageRoot));
  io.stdout.write(plan.length ? `${dry ? "would remove" : "removes"}:\n` : `nothing to remove (no ${versionsDir(paths.dataDir)}${purge ? " and no config, data, state or cache dirs" : ""})\n`);
  for (const p of plan) io.stdout.write(`  ${p.path}  (${p.what}${p.link ? "; a symlink: the link only" : ""})\n`);
  if (hint) io.stdout.write(`${hint}\n`);
  if (dry || !plan.length) return 0;
  if (!yes) {
    if (!io.stdin.isTTY) {
      io.stderr.write("oceancode uninstall: not a terminal: pass --yes to remove these (or --dry-run)\n");
      return 2;
    }
    const rl = createInterface({ input: io.stdin, output: io.stdout });
    const answer = await rl.question("remove these? [y/N] ");
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      io.stdout.write("nothing removed\n");
      return 1;
    }
  }
  let failed = 0;
  for (const p of plan) {
    try {
      // fs.rm removes a symlink itself, never its target, and does not follow links inside a tree
      fs.rmSync(p.path, { recursive: !p.link, force: true, maxRetries: 3 });
      io.stdout.write(`removed ${p.path}\n`);
    } catch (e) {
      failed++;
      io.stderr.write(`oceancode uninstall: could not remove ${p.path}: ${(e as Error).message}\n`);
    }
  }
  return failed ? 1 : 0;
}
