/** The sandbox config, resolved to absolute paths. */
import os from "node:os";
import path from "node:path";

export interface SandboxConfig {
  enabled?: boolean;
  deny?: string[];
  network?: "off" | "allowlist";
  allow_hosts?: string[];
}

export interface SandboxPlan {
  project: string;
  cwd: string;
  deny: string[];
  network: "off" | "allowlist";
  allowHosts: string[];
}

export function planFor(cfg: SandboxConfig, project: string, cwd: string, home = os.homedir()): SandboxPlan {
  const abs = (p: string): string => (p === "~" ? home : p.startsWith("~/") ? path.join(home, p.slice(2)) : path.resolve(project, p));
  return { project, cwd, deny: (cfg.deny ?? []).map(abs), network: cfg.network ?? "off", allowHosts: cfg.allow_hosts ?? [] };
}
