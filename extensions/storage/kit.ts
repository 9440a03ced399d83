/**
 * The kit `oceancode/kit/storage`: the implementation storage shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/storage`, extensions/storage/api.ts).
 *
 * What both stores (storage, storage-postgres) share instead of copying:
 * - The retention engine, for any store: a store implements RetentionBackend (its idle sessions, pins, payload sizes, a try-lock, deleteSession) and gets the sweep at session start (tapRetention), the plan and `sessions --expiring` (expiringCommand) with the bundled store's policy and messages. The bundled store and storage-postgres both use it. (These modules import types only: this contract stays cheap.)
 * - The write-behind queue a session store writes through (batches that never split a step, retry back-off with one message per failure episode, settle), and the health it implies; the SQLite and PostgreSQL stores' writers are thin adapters over it. Type imports only: no database driver is loaded.
 * - The session tables' rows (the same in every store: docs/storage.md) and how they read back as summaries, session info and event records; pure, no database driver.
 * - What a session store queues for its writer as the engine runs (the same in every store); pure.
 * - The ledger and the database reconciled on open (reconcile.ts): whether a recovery source runs past a store's rows, the writes that catch the store up, and the lines that say so; any store uses them on the open of a session it has claimed. Pure: no database driver.
 */
export { expiringCommand } from "./expiring.js";
export { participantFigures } from "./figures.js";
export { checkDatabase, databaseFile, globalSetting } from "./kit/shared.js";
export { endsTurn, findOrphans } from "./orphans.js";
export { catchUp, catchUpOps, caughtUpLine, reconcileSession, refusalLine } from "./reconcile.js";
export { busyElsewhere, planRetention, sweepLine, sweepRetention, tapRetention } from "./retention.js";
export { sessionOp, stepOps } from "./session-ops.js";
export { emptyTotals, eventOf, infoOf, parseObject, parseTotals, summaryOf, titleFrom } from "./session-rows.js";
export { WriteQueue, writerHealth } from "./write-queue.js";
export { SchemaTooNew, isStorageOpenError } from "./errors.js";
