/**
 * The published contract `oceancode/api/sandbox` (service "sandbox"): what the sandbox does here, so
 * `permissions check` and doctor can say whether a command would run confined.
 */
import type { SpawnContext } from "../engine/api.js";

export interface SandboxStatus {
  /** the full sandbox (bubblewrap with its namespaces; sandbox-exec on macOS) can be built here */
  available: boolean;
  /** why not, one clause */
  why?: string;
  /** children that run unconfined still get a PID namespace */
  pidNamespace: boolean;
}

export interface SandboxService {
  /** sandbox.enabled: true "all" (confine every command), false "off" (opted out), unset "unattended" */
  policy(): "all" | "unattended" | "off";
  status(): SandboxStatus;
  /** the wrap a child would get: confine, pid (namespace only), none, refuse (fails closed) */
  wrapFor(sc: SpawnContext, purpose: string): "confine" | "pid" | "none" | "refuse";
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    sandbox: SandboxService;
  }
}
