/**
 * What happens to a call, attended (a person answers asks: the pager, an ACP or serve client) and under
 * `run --auto` (nobody looks): allowed unconfined, allowed confined, asked, rejected or denied, and why.
 * Combines the permission decision with the sandbox's policy (sandbox.enabled) and whether a sandbox can
 * be built here; an allow no person gave is automatic, so a bash command it covers runs confined.
 */
import type { PermissionDecision } from "./api.js";
import type { SandboxService } from "../sandbox/api.js";

export type Outcome = "allowed unconfined" | "allowed confined" | "asked" | "rejected" | "denied";

export interface Verdict {
  outcome: Outcome;
  why: string;
}

export interface Outcomes {
  attended: Verdict;
  auto: Verdict;
}

interface SandboxView {
  policy: "all" | "unattended" | "off";
  available: boolean;
  why?: string;
}

export function sandboxView(s: SandboxService | undefined): SandboxView {
  if (!s) return { policy: "off", available: false, why: "the sandbox extension is not installed" };
  const st = s.status();
  return { policy: s.policy(), available: st.available, ...(st.why ? { why: st.why } : {}) };
}

const INSTALL = "install bubblewrap (apt install bubblewrap)";

/** How an approved bash command runs: by a person (`person`), or automatically (`exact`: the user's exact rule). */
function run(sb: SandboxView, person: boolean, exact: boolean, unconfined: boolean): Verdict {
  if (sb.policy === "off") return { outcome: "allowed unconfined", why: "sandbox.enabled is false (opted out)" };
  if (sb.policy === "all") {
    if (unconfined) return { outcome: "denied", why: "sandbox.enabled is true: an unconfined run is not available" };
    return sb.available ? { outcome: "allowed confined", why: "sandbox.enabled is true: every command runs in the sandbox" } : { outcome: "denied", why: `sandbox.enabled is true but ${sb.why}: ${INSTALL}` };
  }
  if (person) return { outcome: "allowed unconfined", why: unconfined ? "a person approves the unconfined run" : "a person approves it at that moment" };
  if (unconfined) return exact ? { outcome: "allowed unconfined", why: "the exact allow rule names the command (an unconfined run)" } : { outcome: "rejected", why: "an unconfined run needs a person or an exact allow rule" };
  if (sb.available) return { outcome: "allowed confined", why: exact ? "approved ahead of time by the exact allow rule, still confined" : "no person approves it: it runs in the sandbox" };
  return exact ? { outcome: "allowed unconfined", why: `${sb.why}; the exact allow rule stands in for a person` } : { outcome: "rejected", why: `no sandbox here (${sb.why}): ${INSTALL}` };
}

export function outcomes(tool: string, d: PermissionDecision, sb: SandboxView, exact: boolean): Outcomes {
  const bash = tool.toLowerCase() === "bash";
  const unconfined = d.unconfined === true;
  if (d.action === "deny") {
    const v: Verdict = { outcome: "denied", why: d.reason };
    return { attended: v, auto: v };
  }
  if (!bash) {
    const attended: Verdict = d.action === "allow" ? { outcome: "allowed unconfined", why: "not a command: the sandbox confines bash" } : { outcome: "asked", why: d.reason };
    const auto: Verdict =
      d.action === "allow"
        ? attended
        : d.autoApprove === false
          ? { outcome: "rejected", why: `only a person can approve it (${d.reason})` }
          : { outcome: "allowed unconfined", why: "approves the ask" };
    return { attended, auto };
  }
  let attended: Verdict;
  if (d.action === "ask") attended = { outcome: "asked", why: `${d.reason}; approved: ${run(sb, true, exact, unconfined).outcome}` };
  else {
    const r = run(sb, false, exact, unconfined);
    // where no sandbox exists an automatic allow becomes a person's ask (the pager asks)
    attended = r.outcome === "rejected" ? { outcome: "asked", why: `${r.why}; approved: allowed unconfined` } : r;
  }
  let auto: Verdict;
  if (d.action === "ask" && d.autoApprove === false) auto = { outcome: "rejected", why: `only a person, or an exact allow rule for the command, can approve it (${d.reason})` };
  else {
    const r = run(sb, false, exact || d.autoApprove === true, unconfined);
    auto = d.action === "ask" && r.outcome !== "rejected" && r.outcome !== "denied" ? { outcome: r.outcome, why: `approves the ask; ${r.why}` } : r;
  }
  return { attended, auto };
}
