/**
 * macOS: a sandbox-exec (Seatbelt) profile with the same shape as the bwrap plan: reads allowed except
 * the deny roots, writes only in the project and the temp dirs, network off (or only the relay's
 * loopback port with an allowlist). Run as: sandbox-exec -p <profile> <command> ...
 */
import type { SandboxPlan } from "./config.js";

const q = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

export function seatbeltProfile(plan: SandboxPlan, relayPort?: number): string {
  const lines = [
    "(version 1)",
    "(allow default)",
    ";; writes: only the workspace and the temp dirs",
    "(deny file-write*)",
    `(allow file-write* (subpath ${q(plan.project)}) (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/tty"))`,
  ];
  for (const d of plan.deny) lines.push(`(deny file-read* file-write* (subpath ${q(d)}))`);
  lines.push(";; network", "(deny network*)");
  lines.push('(allow network* (local unix-socket))');
  if (plan.network === "allowlist" && relayPort) lines.push(`(allow network-outbound (remote tcp ${q(`localhost:${relayPort}`)}))`);
  return `${lines.join("\n")}\n`;
}
