/**
 * The storage extension: oceancode.db (better-sqlite3, WAL) behind the engine. It taps the engine's
 * session hooks to write each step's rows behind the step, answers loadSession / latestSession, runs
 * the retention sweep, and contributes `oceancode storage repair`; the contract's `sessions`, `migrate`,
 * `session pin|unpin|fork` and doctor checks are served by storage-commands through the service (admin.ts, pins.ts). The database opens on first use, so the migrate command can report what it applies.
 */
import path from "node:path";
import { type ExtensionContext, type CommandIO } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import { RECOVERY_EVENT } from "./api.js";
import { databaseFile, globalSetting } from "./kit/shared.js";
import { repairCommandFor } from "./db.js";
import { storageCommand } from "./storage-command.js";
import { SqliteStore } from "./store.js";
import { storageAdmin } from "./admin.js";
import { sqlitePins } from "./pins.js";
import { DEFAULT_RETENTION_DAYS, tapRetention, type SweepReport } from "./retention.js";
import { sqliteRetention } from "./sqlite-retention.js";
import { tapEngine } from "./taps.js";
import { freePageBytes, vacuumLine, vacuumSqlite } from "./vacuum.js";

let store: SqliteStore | undefined;

export default {
  activate(ctx: ExtensionContext) {
    const db = databaseFile(ctx.config, ctx.paths.dataDir);
    const file = db.file;
    for (const f of db.ignoredIn) ctx.log.warn(`${f}: database.path ignored: one database serves every project, so it is read from the user config, $OC_DB or --db only`);
    const repair = repairCommandFor(file, db.isDefault);
    const retention = globalSetting(ctx.config, "database.retention_days");
    const dbDays = typeof retention.value === "number" && retention.value >= 0 ? retention.value : DEFAULT_RETENTION_DAYS;
    const s = new SqliteStore({ file, repair, retentionDays: dbDays, onError: (m) => ctx.log.error(m), onWarn: (m) => ctx.log.warn(m), onInfo: (m) => ctx.log.info(m) });
    store = s;
    for (const f of retention.ignoredIn) {
      ctx.log.warn(`${f}: database.retention_days ignored: retention is one policy for every project, so it is read from the user config only`);
    }
    const vacuum = globalSetting(ctx.config, "database.vacuum");
    for (const f of vacuum.ignoredIn) ctx.log.warn(`${f}: database.vacuum ignored: one database serves every project, so it is read from the user config only`);
    // database.vacuum: after a sweep, the pages it freed go back to the file system (vacuum.ts)
    const afterSweep = async (r: SweepReport) => {
      await s.settle();
      const db = s.db();
      if (r.removed.length === 0 && freePageBytes(db) === 0) return;
      const line = vacuumLine(file, vacuumSqlite(db, file));
      if (r.removed.length) ctx.log.warn(line);
      else ctx.log.info(line);
    };
    const engine = ctx.services.tryGet("engine");
    if (engine) {
      tapRetention(engine, sqliteRetention(s), {
        name: ctx.id,
        dbDays,
        log: ctx.log,
        participants: () => s.retentionParticipants(),
        openSessionIds: () => s.openSessionIds(),
        ...(vacuum.value === true ? { afterSweep } : {}),
      });
      tapEngine(engine, s, ctx.id);
    }
    ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "close" }, () => s.close());
    // other stores (the ledger) join retention when this event activates them
    const participants = async () => {
      await ctx.activate("onEvent:retention");
      return s.retentionParticipants();
    };
    // what `oceancode sessions`, `migrate` and `doctor --storage` (the storage-commands extension) ask of the provider
    const sources = async () => {
      await ctx.activate(RECOVERY_EVENT); // the ledger registers itself when it activates
      return s.recoverySources();
    };
    ctx.provide("storage", Object.assign(s, storageAdmin(s, { repair, retention: { dbDays, participants, vacuum: vacuum.value === true }, sources, retentionDays: dbDays, dataDir: ctx.paths.dataDir, vacuum: vacuum.value === true, log: (m) => ctx.log.error(m) }), { pins: sqlitePins(s, participants) }));
    ctx.registerCommand("storage", (argv: string[], io: CommandIO) =>
      storageCommand(argv, io, {
        file: (flag) => (flag ? path.resolve(flag) : file),
        sources,
        retentionDays: dbDays,
      }),
    );
  },
  deactivate() {
    store?.close();
    store = undefined;
  },
};
