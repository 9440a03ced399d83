/**
 * The README's way to put `oceancode` on the PATH from a clone: `npm install -g .` (here into a temp
 * prefix, offline, scripts off: dist/ is already built), then the installed command runs from another
 * directory.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-install-");
});
afterEach(() => sb.cleanup());

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };

describe("installing the clone as a global command", () => {
  it("npm install -g --prefix <tmp> <clone>: the installed oceancode answers --version and runs a scripted turn elsewhere", () => {
    const prefix = path.join(sb.home, "prefix");
    const npmEnv = { ...sb.env, npm_config_cache: path.join(sb.home, ".npm"), npm_config_update_notifier: "false" };
    const install = spawnSync("npm", ["install", "-g", "--prefix", prefix, "--offline", "--ignore-scripts", "--no-audit", "--no-fund", REPO_ROOT], {
      env: npmEnv,
      cwd: sb.home,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(install.status, install.stderr).toBe(0);
    const bin = path.join(prefix, "bin", "oceancode");
    expect(fs.existsSync(bin)).toBe(true);

    // as a user would, with the prefix's bin on PATH, from a directory that is not the clone
    const env = { ...sb.env, PATH: `${path.dirname(bin)}${path.delimiter}${sb.env.PATH}` };
    const version = spawnSync("oceancode", ["--version"], { env, cwd: sb.project, encoding: "utf8" });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toBe(`oceancode ${pkg.version}\n`);

    fs.writeFileSync(path.join(sb.project, "hello.json"), JSON.stringify({ steps: [{ text: "installed and running" }] }));
    const run = spawnSync("oceancode", ["run", "--model", "scripted/hello.json", "hi"], { env, cwd: sb.project, encoding: "utf8", input: "" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe("installed and running\n");
    expect(run.stderr).toMatch(/^session: ses_\w+\n$/);
    const sessions = spawnSync("oceancode", ["sessions", "--json"], { env, cwd: sb.project, encoding: "utf8" });
    expect((JSON.parse(sessions.stdout) as Array<{ cwd: string }>).map((s) => s.cwd)).toEqual([fs.realpathSync(sb.project)]);
  });
});
