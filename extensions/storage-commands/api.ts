/**
 * The published contract `oceancode/api/storage-commands`.
 *
 * storage-commands publishes no service and no hooks: it serves the storage contract's commands
 * (`oceancode sessions`, `oceancode migrate`) and doctor's storage checks for whichever extension provides
 * the "storage" service. What it asks of that provider is the StorageService of oceancode/api/storage
 * (listSessions, settle, and the optional migrations, at, expiring, doctorChecks).
 */
export type { StorageService, StorageCheck, StorageMigrations, MigrationReport } from "../storage/api.js";
