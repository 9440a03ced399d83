/** The sandbox config, resolved to absolute paths, and one confined spawn's plan. */
import os from "node:os";
import path from "node:path";

export interface SandboxConfig {
  /** true: confine every child's command (asked or not); false: opt out; unset: confine what no person approved */
  enabled?: boolean;
  deny?: string[];
  network?: "off" | "allowlist";
  allow_hosts?: string[];
  /** extra writable paths for confined commands (relative to the project, absolute, or ~/...) */
  allow_write?: string[];
  /** false: children that are not confined run without the PID namespace wrap */
  pid_namespace?: boolean;
}

export interface SandboxPlan {
  project: string;
  cwd: string;
  /** hidden: user deny roots and the secrets (existing paths only matter) */
  deny: string[];
  network: "off" | "allowlist";
  allowHosts: string[];
  /** writable beside the project */
  allowWrite: string[];
  /** bound read-only inside the project (protected paths that exist or got a placeholder) */
  readOnly: string[];
  /** project files masked with /dev/null (.env*) */
  masked: string[];
  /** re-exposed read-only after the hiding (the session's ledger and kept tool output) */
  reveal: string[];
  /** the private /tmp (a per-session folder) */
  tmp?: string;
}

export function expand(p: string, project: string, home = os.homedir()): string {
  return p === "~" ? home : p.startsWith("~/") ? path.join(home, p.slice(2)) : path.resolve(project, p);
}

export function planFor(cfg: SandboxConfig, project: string, cwd: string, home = os.homedir()): SandboxPlan {
  const abs = (p: string): string => expand(p, project, home);
  const allowHosts = cfg.allow_hosts ?? [];
  return {
    project,
    cwd,
    deny: (cfg.deny ?? []).map(abs),
    network: cfg.network ?? (allowHosts.length ? "allowlist" : "off"),
    allowHosts,
    allowWrite: (cfg.allow_write ?? []).map(abs),
    readOnly: [],
    masked: [],
    reveal: [],
  };
}
