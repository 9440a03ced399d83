/**
 * bubblewrap argv for one child: / read-only, the project writable, /tmp private, /dev and /proc fresh,
 * deny roots hidden (an empty read-only tmpfs over a directory, /dev/null over a file), the network
 * namespace unshared (only a loopback inside). With an allowlist the relay's socket directory is bound in.
 */
import fs from "node:fs";
import path from "node:path";
import type { SandboxPlan } from "./config.js";

export const RELAY_DIR_INSIDE = "/tmp/.oc-relay";

export function findOnPath(bin: string, envPath = process.env.PATH ?? ""): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, bin);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

export const BWRAP_MISSING =
  "sandbox is enabled but bubblewrap (bwrap) is not installed: install it (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap) or set sandbox.enabled to false";

export function bwrapArgs(plan: SandboxPlan, relayDir?: string): string[] {
  const a = ["--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  a.push("--bind", plan.project, plan.project);
  for (const d of plan.deny) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(d);
    } catch {
      continue; // nothing to hide
    }
    if (st.isDirectory()) a.push("--tmpfs", d, "--remount-ro", d);
    else a.push("--ro-bind", "/dev/null", d);
  }
  a.push("--unshare-net");
  if (plan.network === "allowlist" && relayDir) a.push("--bind", relayDir, RELAY_DIR_INSIDE);
  a.push("--chdir", plan.cwd);
  return a;
}
