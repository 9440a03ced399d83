/**
 * bubblewrap argv for one child. Confined: / read-only, the project (and allow_write) writable, protected
 * project paths read-only, secrets hidden (an empty read-only tmpfs over a folder, /dev/null over a file),
 * a private /tmp, fresh /dev and /proc, PID/IPC/UTS/network namespaces, a new session (no terminal
 * injection), killed with its parent. PID only: everything as it is, but a fresh PID namespace and /proc,
 * so oceancode's processes (and their /proc/<pid>/environ) are out of sight.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
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

export const INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)";
export const BWRAP_MISSING = `sandbox is enabled but bubblewrap (bwrap) is not installed: ${INSTALL_HINT} or set sandbox.enabled to false`;

export interface Availability {
  ok: boolean;
  /** the bwrap binary, when found */
  bin?: string;
  /** why not, one clause */
  why?: string;
}

const probed = new Map<string, Availability>();

/**
 * Whether bubblewrap can build a sandbox here: the binary is found ($OC_SANDBOX_BWRAP, else PATH;
 * OC_SANDBOX_BWRAP=none means "treat as absent") and it can make its namespaces (user namespaces may
 * be off). Probed once per binary per process.
 */
export function bwrapAvailable(env: NodeJS.ProcessEnv = process.env): Availability {
  const forced = env.OC_SANDBOX_BWRAP;
  if (forced === "none" || forced === "") return { ok: false, why: "bubblewrap is turned off here (OC_SANDBOX_BWRAP=none)" };
  const bin = forced ?? findOnPath("bwrap", env.PATH ?? process.env.PATH);
  if (!bin) return { ok: false, why: "bubblewrap (bwrap) is not installed" };
  const seen = probed.get(bin);
  if (seen) return seen;
  const r = spawnSync(bin, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--die-with-parent", "--", "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 10_000,
  });
  const err = r.error ? r.error.message : (r.stderr?.toString("utf8").trim().split("\n")[0] ?? "");
  const got: Availability =
    r.status === 0 ? { ok: true, bin } : { ok: false, bin, why: `bubblewrap cannot create its namespaces here (${err || `exit ${r.status}`}; user namespaces may be disabled)` };
  probed.set(bin, got);
  return got;
}

function exists(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Hide one path: a directory under an empty tmpfs (made read-only later, after the reveals inside it got
 * their mount points: returned), a file (or socket) under /dev/null.
 */
function hide(a: string[], p: string): string | undefined {
  const st = exists(p);
  if (!st) return undefined;
  if (st.isDirectory()) {
    a.push("--tmpfs", p);
    return p;
  }
  a.push("--ro-bind", "/dev/null", p);
  return undefined;
}

const inside = (p: string, root: string): boolean => p === root || p.startsWith(root.endsWith("/") ? root : `${root}/`);

export function bwrapArgs(plan: SandboxPlan, relayDir?: string): string[] {
  const a = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  if (plan.tmp) a.push("--bind", plan.tmp, "/tmp");
  else a.push("--tmpfs", "/tmp");
  // what the private /tmp covers is out of sight already, unless bound again (the project, allow_write)
  const writable = [plan.project, ...plan.allowWrite];
  const visible = (p: string): boolean => !inside(p, "/tmp") || writable.some((w) => inside(p, w));
  a.push("--bind", plan.project, plan.project);
  for (const w of plan.allowWrite) if (exists(w)) a.push("--bind", w, w);
  for (const p of plan.readOnly) if (exists(p)) a.push("--ro-bind", p, p);
  for (const p of plan.masked) a.push("--ro-bind", "/dev/null", p);
  const tmpfs: string[] = [];
  for (const d of plan.deny) {
    // a hidden root that holds the project (or an allow_write path) would hide the work itself
    if (writable.some((w) => inside(w, d)) || !visible(d)) continue;
    const t = hide(a, d);
    if (t) tmpfs.push(t);
  }
  for (const r of plan.reveal) if (exists(r)) a.push("--ro-bind", r, r);
  for (const t of tmpfs) a.push("--remount-ro", t);
  a.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--die-with-parent", "--new-session");
  if (plan.network === "allowlist" && relayDir) a.push("--bind", relayDir, RELAY_DIR_INSIDE);
  a.push("--setenv", "TMPDIR", "/tmp", "--chdir", plan.cwd);
  return a;
}

/** The PID-namespace-only wrap for children that are not confined (a person's yes, hooks, MCP servers). */
export function pidOnlyArgs(cwd: string): string[] {
  return ["--dev-bind", "/", "/", "--proc", "/proc", "--unshare-pid", "--die-with-parent", "--chdir", cwd];
}
