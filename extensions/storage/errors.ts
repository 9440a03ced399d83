/**
 * The storage extension's coded errors (each defined once here). storage-postgres and serve-fleet take
 * SchemaTooNew through oceancode/api/storage. Every "cannot open or use" error is permanent: retrying will not help.
 */
import { defineError, hasErrorCode, type CodedError } from "../../kernel/api.js";

/** A database written by a newer oceancode: never touched (SQLite, PostgreSQL and the fleet's tables alike). */
export const SchemaTooNew = defineError("storage", "OC_ERR_SCHEMA_TOO_NEW", "{where}: {what} version {found} is newer than this oceancode understands (up to {supported}); {remedy}", {}).withData<{ found: number; supported: number }>();
export const StorageDamaged = defineError(
  "storage",
  "OC_ERR_STORAGE_DAMAGED",
  "{file}: cannot use the database ({detail}): the file is damaged or not an oceancode database; rebuild it from the session ledger with `{repair}` (the damaged file is kept beside it), or pass --db <path> to use another file",
);
export const StorageFolder = defineError("storage", "OC_ERR_STORAGE_FOLDER", "{file}: cannot create the database folder ({reason}); pass --db <path> to use another place");
export const StorageCannotOpen = defineError("storage", "OC_ERR_STORAGE_CANNOT_OPEN", "{file}: cannot open the database ({reason}); check its permissions or pass --db <path>");
export const StorageUnusable = defineError("storage", "OC_ERR_STORAGE_UNUSABLE", "{file}: cannot use the database ({reason}); check the file, or pass --db <path>");
export const StorageClosed = defineError("storage", "OC_ERR_STORAGE_CLOSED", "{file}: the store is closed");
/** Another connection holds the database's lock past busy_timeout: the line names the holder. */
export const StorageLocked = defineError("storage", "OC_ERR_STORAGE_LOCKED", "{line}");
/** The disk under the database is full: the line names the disk and how full it is. */
export const StorageFull = defineError("storage", "OC_ERR_STORAGE_FULL", "{line}");
/** Retention's doctor preview deletes nothing (a plan only). */
export const DoctorNeverDeletes = defineError("storage", "OC_ERR_STORAGE_DOCTOR_DELETE", "doctor never deletes");

const OPEN_CODES = new Set<string>([SchemaTooNew, StorageDamaged, StorageFolder, StorageCannotOpen, StorageUnusable, StorageClosed, StorageLocked, StorageFull].map((f) => f.code));

/** A database that cannot be opened or used at all (any copy of this module): the message names the file and the fix. */
export function isStorageOpenError(e: unknown): e is CodedError & Error {
  return [...OPEN_CODES].some((c) => hasErrorCode(e, c));
}
