/**
 * The published contract `oceancode/api/storage-postgres`.
 *
 * storage-postgres provides the "storage" service (StorageService of `oceancode/api/storage`) over a
 * PostgreSQL database; select it with `extensions.replace: {"storage": "storage-postgres"}` and set
 * `storage.url` (user or managed config) or `$OC_DATABASE_URL`. What it publishes beyond that contract is
 * `redactUrl`, the one place a database URL's password is hidden before anything shows it, and the
 * session lock's key (SESSION_LOCK_NAMESPACE).
 */
export type { StorageService } from "../storage/api.js";

/**
 * The first key of a session's advisory lock, `pg_try_advisory_lock(SESSION_LOCK_NAMESPACE, hashtext(<id>))`
 * ("ocss"), held by the process that has the session open: a fleet reads pg_locks with it to tell whether a
 * session's holder is alive (the lock goes with its connection).
 */
export const SESSION_LOCK_NAMESPACE = 0x6f637373;

/** URL credentials are hidden by the shared redactor (oceancode/api/obs): one implementation for every display. */
import { REDACTED, redactUrl } from "../obs/api.js";
export { REDACTED, redactUrl };

/** The password a URL carries (decoded), or undefined: used to scrub it from driver messages too. */
export function urlPassword(url: string): string | undefined {
  try {
    const u = new URL(url);
    const p = u.password ? decodeURIComponent(u.password) : u.searchParams.get("password") ?? undefined;
    return p || undefined;
  } catch {
    return undefined;
  }
}

/** Scrub a message for display: every URL's credentials, and the literal password wherever it appears. */
export function redactText(text: string, url?: string): string {
  let out = redactUrl(text);
  const pw = url ? urlPassword(url) : undefined;
  if (pw && pw.length >= 3) {
    out = out.split(pw).join(REDACTED);
    const enc = encodeURIComponent(pw);
    if (enc !== pw) out = out.split(enc).join(REDACTED);
  }
  return out;
}
