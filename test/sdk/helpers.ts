/** Install an example extension the way a team would: a copy of its folder under ~/.oceancode/extensions/<id>/. */
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT, runCli, type Sandbox } from "../kit/cli.js";

export const EXAMPLES = path.join(REPO_ROOT, "examples", "extensions");

export function install(sb: Sandbox, id: string): string {
  const dest = path.join(sb.home, ".oceancode", "extensions", id);
  fs.cpSync(path.join(EXAMPLES, id), dest, { recursive: true });
  return dest;
}

/** The global config file (user tier). */
export function globalConfig(sb: Sandbox, value: unknown): void {
  sb.write(path.join(".config", "oceancode", "oceancode.jsonc"), JSON.stringify(value, null, 2), "home");
}

export function oc(sb: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(["--dir", sb.project, ...args], { cwd: sb.project, env: { ...sb.env, OC_RETRY_BASE_MS: "1", ...env } });
}

/** The JSON events of a `run --format json`. */
export function events(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
