/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/session.ts, which keeps the types). */
import { type StoredSession, type SessionRefusal, SESSION_BUSY } from "../contract/session.js";
import { OcError } from "../../../kernel/api.js";
import { SessionBusy, SessionRefused } from "../errors.js";

/** The error openSession throws for a SessionRefusal; recognised by its code. */
export function sessionRefusedError(r: SessionRefusal): Error & { code: string } {
  // a store may answer with its own code (registered by it); else the engine's OC_ERR_SESSION_REFUSED
  return r.code ? new OcError(r.code, r.refused) : SessionRefused({ message: r.refused });
}

export function isRefusal(v: StoredSession | SessionRefusal | undefined): v is SessionRefusal {
  return typeof v === "object" && v !== null && typeof (v as SessionRefusal).refused === "string";
}

/** The error openSession throws when another process holds the session; recognised by its code. */
export function sessionBusyError(message: string): Error & { code: string } {
  return SessionBusy.wrap(message);
}

export function isSessionBusy(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === SESSION_BUSY;
}
