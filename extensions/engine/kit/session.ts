/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/session.ts, which keeps the types). */
import { type StoredSession, type SessionRefusal, SESSION_REFUSED, SESSION_BUSY } from "../contract/session.js";

/** The error openSession throws for a SessionRefusal; recognised by its code. */
export function sessionRefusedError(r: SessionRefusal): Error & { code: string } {
  return Object.assign(new Error(r.refused), { code: r.code ?? SESSION_REFUSED });
}

export function isRefusal(v: StoredSession | SessionRefusal | undefined): v is SessionRefusal {
  return typeof v === "object" && v !== null && typeof (v as SessionRefusal).refused === "string";
}

/** The error openSession throws when another process holds the session; recognised by its code. */
export function sessionBusyError(message: string): Error & { code: typeof SESSION_BUSY } {
  return Object.assign(new Error(message), { code: SESSION_BUSY });
}

export function isSessionBusy(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === SESSION_BUSY;
}
