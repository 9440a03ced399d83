/**
 * The version switch, run first by the CLI: when `<data dir>/versions/current` names another version than
 * this one, that version's oceancode runs with the same argv and its exit code is ours. Cheap: one
 * readlink (and one small JSON read when it does switch); no kernel. OC_NO_VERSION_SWITCH=1 turns it
 * off; OC_VERSION_SWITCHED (set for the child) stops a second switch, so a link can never loop.
 * node:child_process is imported only when it does switch: `--help` and `--version` never load it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The data dir the kernel would use (kernel/paths.ts's rule), with a leading --home honoured. */
function dataDir(argv: string[], env: NodeJS.ProcessEnv): string {
  const i = argv.findIndex((a) => a === "--home" || a.startsWith("--home="));
  const flagHome = i < 0 ? undefined : argv[i]!.includes("=") ? argv[i]!.slice(7) : argv[i + 1];
  if (flagHome) return path.join(path.resolve(flagHome), ".local", "share", "oceancode");
  const base = env.XDG_DATA_HOME ? path.resolve(env.XDG_DATA_HOME) : path.join(path.resolve(env.HOME ?? os.homedir()), ".local", "share");
  return path.join(base, "oceancode");
}

/** The switched-to version's exit code, or undefined when this version should run. */
export async function runCurrentVersion(argv: string[], ownVersion: () => string, env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  if (env.OC_NO_VERSION_SWITCH === "1" || env.OC_VERSION_SWITCHED) return undefined;
  const versions = path.join(dataDir(argv, env), "versions");
  let target: string;
  try {
    target = path.basename(fs.readlinkSync(path.join(versions, "current")));
  } catch {
    return undefined; // no side-by-side install: the common case
  }
  if (target === ownVersion()) return undefined;
  let bin: string;
  try {
    const rec = JSON.parse(fs.readFileSync(path.join(versions, target, ".oc-install.json"), "utf8")) as { bin: string };
    bin = path.join(versions, target, rec.bin);
  } catch {
    return undefined; // a broken link or record: this version runs rather than nothing
  }
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { stdio: "inherit", env: { ...env, OC_VERSION_SWITCHED: target } });
    // the terminal's signals reach the child too (same process group); ours must not end us first
    const ignore = () => undefined;
    for (const s of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const) process.on(s, ignore);
    child.on("error", (e) => {
      process.stderr.write(`oceancode: cannot start ${target} (${bin}): ${e.message}\n`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
  });
}
