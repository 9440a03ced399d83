/**
 * The published contract `oceancode/api/doctor`.
 *
 * The doctor extension's public API. Service name: "doctor" (DoctorService).
 * `oceancode doctor --storage` fires DOCTOR_STORAGE_EVENT; the extension serving the storage contract's
 * commands activates on it and adds the storage checks (asked of whichever extension provides "storage").
 */

/** One doctor line. */
export interface DoctorCheck {
  status: "ok" | "info" | "warn" | "FAIL";
  check: string;
  detail: string;
}

export interface DoctorService {
  /** Add checks for a topic (e.g. "storage"); run when doctor prints that topic. */
  addChecks(topic: string, run: () => Promise<DoctorCheck[]>): void;
}

export const DOCTOR_STORAGE_EVENT = "onEvent:doctor:storage";
