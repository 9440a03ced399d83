/**
 * `oceancode self-check` (hidden; what update runs on a newly installed version): this install boots and
 * runs one scripted turn in a throwaway HOME and project, then prints SELF_CHECK_OK.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CommandIO } from "../../kernel/api.js";

export function selfCheckCommand(io: CommandIO, cliMain: string): number {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-self-check-"));
  try {
    const home = path.join(root, "home");
    const project = path.join(root, "project");
    fs.mkdirSync(home);
    fs.mkdirSync(project);
    const said = "self-check turn ok";
    fs.writeFileSync(path.join(project, "check.json"), JSON.stringify({ steps: [{ text: said }] }));
    const env = {
      PATH: io.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_DATA_HOME: path.join(home, ".local", "share"),
      XDG_STATE_HOME: path.join(home, ".local", "state"),
      OC_MANAGED_CONFIG: path.join(root, "no-managed.json"),
      OC_NO_VERSION_SWITCH: "1",
      NO_COLOR: "1",
    };
    const r = spawnSync(process.execPath, [cliMain, "--dir", project, "run", "--model", "scripted/check.json", "self-check"], { cwd: project, env, encoding: "utf8", input: "", timeout: 90_000 });
    if (r.status !== 0 || r.stdout.trim() !== said) {
      io.stderr.write(`oceancode self-check: the scripted turn failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" / ")}\n`);
      return 1;
    }
    io.stdout.write("SELF_CHECK_OK\n");
    return 0;
  } finally {
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  }
}
