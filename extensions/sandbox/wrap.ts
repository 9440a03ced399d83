/** Wrap one spawn in the sandbox (Linux: bwrap; macOS: sandbox-exec), or in a PID namespace only. */
import type { SpawnSpec } from "../engine/api.js";
import type { SandboxPlan } from "./config.js";
import { bwrapArgs, pidOnlyArgs, findOnPath, BWRAP_MISSING, RELAY_DIR_INSIDE } from "./bwrap.js";
import { seatbeltProfile } from "./seatbelt.js";
import { BRIDGE_JS } from "./bridge.js";

/** A spawn that prints why it cannot run and exits 126: never a silent, unsandboxed run. */
export function failingSpec(spec: SpawnSpec, message: string): SpawnSpec {
  return { ...spec, command: process.execPath, args: ["-e", `process.stderr.write(${JSON.stringify(`oceancode: ${message}\n`)}); process.exit(126)`] };
}

export function wrapSpawn(
  spec: SpawnSpec,
  plan: SandboxPlan,
  opts: { relayDir?: string; platform?: NodeJS.Platform; envPath?: string; bwrap?: string } = {},
): SpawnSpec {
  const platform = opts.platform ?? process.platform;
  if (platform === "darwin") {
    return { ...spec, command: "/usr/bin/sandbox-exec", args: ["-p", seatbeltProfile(plan), spec.command, ...spec.args] };
  }
  if (platform !== "linux") return failingSpec(spec, `the sandbox is not supported on ${platform}; set sandbox.enabled to false`);
  const bwrap = opts.bwrap ?? findOnPath("bwrap", opts.envPath ?? spec.env.PATH ?? process.env.PATH);
  if (!bwrap) return failingSpec(spec, BWRAP_MISSING);
  if (plan.network === "allowlist" && !opts.relayDir) return failingSpec(spec, "sandbox network allowlist: the relay is not running");
  const inner =
    plan.network === "allowlist"
      ? [process.execPath, "-e", BRIDGE_JS, `${RELAY_DIR_INSIDE}/relay.sock`, "--", spec.command, ...spec.args]
      : [spec.command, ...spec.args];
  return { ...spec, command: bwrap, args: [...bwrapArgs(plan, opts.relayDir), "--", ...inner] };
}

/** The child as it is, in its own PID namespace with a fresh /proc (oceancode's processes out of sight). */
export function pidWrap(spec: SpawnSpec, bwrap: string): SpawnSpec {
  return { ...spec, command: bwrap, args: [...pidOnlyArgs(spec.cwd), "--", spec.command, ...spec.args] };
}
