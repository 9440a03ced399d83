/**
 * The storage extension: oceancode.db (better-sqlite3, WAL) behind the engine. It taps the engine's
 * session hooks to write each step's rows behind the step, answers loadSession / latestSession, and
 * contributes `oceancode migrate`, `oceancode sessions` and `oceancode storage repair`. The database
 * opens on first use, so the migrate command can report what it applies.
 */
import path from "node:path";
import type { ExtensionContext, CommandIO } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import { repairCommandFor, resolveDbPath } from "./db.js";
import { RECOVERY_EVENT } from "./api.js";
import { storageCommand } from "./storage-command.js";
import { SqliteStore } from "./store.js";
import { migrateCommand, sessionsCommand } from "./commands.js";
import { tapEngine } from "./taps.js";

let store: SqliteStore | undefined;

export default {
  activate(ctx: ExtensionContext) {
    const file = resolveDbPath(ctx.env, ctx.paths.dataDir);
    const repair = repairCommandFor(file, !ctx.env.OC_DB);
    const s = new SqliteStore({ file, repair, onError: (m) => ctx.log.error(m), onInfo: (m) => ctx.log.info(m) });
    store = s;
    ctx.provide("storage", s);
    const engine = ctx.services.tryGet<EngineService>("engine");
    if (engine) tapEngine(engine, s, ctx.id);
    ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, () => s.close());
    ctx.registerCommand("migrate", (argv: string[], io: CommandIO) => migrateCommand(argv, io, ctx.paths.dataDir));
    ctx.registerCommand("sessions", (argv: string[], io: CommandIO) => sessionsCommand(argv, io, () => s));
    ctx.registerCommand("storage", (argv: string[], io: CommandIO) =>
      storageCommand(argv, io, {
        file: (flag) => (flag ? path.resolve(flag) : resolveDbPath(io.env, ctx.paths.dataDir)),
        sources: async () => {
          await ctx.activate(RECOVERY_EVENT); // the ledger registers itself when it activates
          return s.recoverySources();
        },
      }),
    );
  },
  deactivate() {
    store?.close();
    store = undefined;
  },
};
