/**
 * Which wrap one child gets, from the config and how its call was approved (SpawnContext):
 *   confine  the full sandbox (bwrap / sandbox-exec)
 *   pid      only a PID namespace (oceancode's processes out of sight), for what runs unconfined
 *   none     nothing (no bubblewrap here, or sandbox.pid_namespace false)
 *   refuse   fail closed: the child prints why and exits 126
 * and, for engine.reviewDecision, what to do with a bash call before it is asked or run.
 */
import type { Decision, SpawnContext, ToolApproval } from "../engine/api.js";
import type { SandboxConfig } from "./config.js";
import { INSTALL_HINT } from "./bwrap.js";

export type Wrap = { kind: "confine" } | { kind: "pid" } | { kind: "none" } | { kind: "refuse"; why: string };

export interface Here {
  /** the full sandbox can be built on this machine */
  available: boolean;
  why?: string;
  /** a PID namespace can be made (bubblewrap works; Linux only) */
  pid: boolean;
}

/** A person's yes, or the user's exact allow rule for the command (a yes given ahead of time). */
export function personLike(a: ToolApproval | undefined): boolean {
  return a?.kind === "person" || (a?.kind === "automatic" && a.exact === true);
}

/** Commands the model writes (bash and its jobs): these must be confined; other tools' fixed children only may be. */
function modelCommand(sc: SpawnContext, purpose: string): boolean {
  return (sc.tool ?? purpose) === "bash" || purpose === "bash";
}

export function wrapFor(cfg: SandboxConfig, sc: SpawnContext, purpose: string, here: Here): Wrap {
  const pidOr = (): Wrap => (cfg.pid_namespace !== false && here.pid ? { kind: "pid" } : { kind: "none" });
  const confineOr = (otherwise: Wrap): Wrap => (here.available ? { kind: "confine" } : otherwise);
  if (cfg.enabled === true) return confineOr({ kind: "refuse", why: `sandbox.enabled is true but no sandbox can be built here (${here.why}): ${INSTALL_HINT}, or set sandbox.enabled to false` });
  if (sc.external || cfg.enabled === false) return pidOr();
  const approval = sc.approval;
  if (approval?.kind === "person") return pidOr();
  // automatic (or unknown: fail closed)
  if (sc.unconfined) return approval?.exact ? pidOr() : { kind: "refuse", why: "an unconfined run needs a person's yes or an exact allow rule for the command" };
  if (!modelCommand(sc, purpose)) return confineOr(pidOr());
  if (approval?.exact) return confineOr(pidOr());
  return confineOr({ kind: "refuse", why: noSandboxLine(here.why) });
}

/** The one line an unattended command gets where nothing can confine it. */
export function noSandboxLine(why?: string): string {
  return `no sandbox here (${why ?? "bubblewrap is not available"}), so a command no person approved cannot run: ${INSTALL_HINT}, or approve it in the pager`;
}

/**
 * engine.reviewDecision for bash: stricter only. Where unattended commands cannot be confined they need a
 * person (an ask no automatic approver may answer); with sandbox.enabled true an unconfined run is refused.
 */
export function review(cfg: SandboxConfig, d: Decision, approval: ToolApproval, unconfined: boolean, here: Here): Decision | undefined {
  if (d.action === "deny") return undefined;
  if (cfg.enabled === true) {
    if (unconfined) return { action: "deny", by: "sandbox", reason: "sandbox.enabled is true: every command runs confined, an unconfined run (dangerouslyDisableSandbox) is not available; run it without that flag" };
    if (!here.available) return { action: "deny", by: "sandbox", reason: `sandbox.enabled is true but no sandbox can be built here (${here.why}): ${INSTALL_HINT}` };
    return undefined;
  }
  if (cfg.enabled === false || unconfined || here.available) return undefined;
  // an exact allow rule stands in for a person (an ask it lets --auto approve carries autoApprove: true)
  if (personLike(approval) || (d.action === "ask" && d.autoApprove === true)) return undefined;
  const line = noSandboxLine(here.why);
  if (d.action === "allow") return { action: "ask", by: "sandbox", reason: line, autoApprove: false };
  return d.autoApprove === false ? undefined : { ...d, reason: `${d.reason}; ${line}`, autoApprove: false };
}
