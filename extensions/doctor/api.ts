/**
 * The published contract `oceancode/api/doctor`.
 *
 * The doctor extension's public API. Service name: "doctor" (DoctorService).
 * `oceancode doctor` fires DOCTOR_RECOVERY_EVENT (orphaned sessions: topic "recovery") and, with --storage,
 * DOCTOR_STORAGE_EVENT; the extension serving the storage contract's commands activates on them and adds
 * its checks (asked of whichever extension provides "storage") and the `storage:` block.
 */

/** One doctor line. */
export interface DoctorCheck {
  status: "ok" | "info" | "warn" | "FAIL";
  check: string;
  detail: string;
}

export interface DoctorService {
  /** Add checks for a topic ("recovery", "storage"); run when doctor prints that topic. Several may add to one topic. */
  addChecks(topic: string, run: () => Promise<DoctorCheck[]>): void;
  /** Add the lines of a block printed as `<topic>:` then the lines indented, after the checks (doctor --storage's `storage:`). */
  addBlock(topic: string, run: () => Promise<string[]>): void;
}

export const DOCTOR_STORAGE_EVENT = "onEvent:doctor:storage";
export const DOCTOR_RECOVERY_EVENT = "onEvent:doctor:recovery";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    doctor: DoctorService;
  }
}
