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
import { REDACTED } from "../obs/api.js";
export { REDACTED };
