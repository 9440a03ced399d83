/**
 * The session ledger: taps the engine's step and turn hooks to write transcripts behind the step, the
 * index files and SESSION.md at turn end, and the journal tree; sweeps stale sessions at the start of a
 * run; contributes `oceancode ledger`. See docs/ledger.md.
 */
import os from "node:os";
import path from "node:path";
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import { Ledger } from "./ledger.js";
import { sweep } from "./retention.js";
import { ledgerCommand } from "./commands.js";
import { LedgerRecovery } from "./recover.js";

export const DEFAULT_RETENTION_DAYS = 7;

export function ledgerRoot(dir: unknown, paths: { home: string; project: string; dataDir: string }): string {
  if (typeof dir !== "string" || dir === "") return path.join(paths.dataDir, "session-ledger");
  const d = dir === "~" ? paths.home : dir.startsWith("~/") ? path.join(paths.home, dir.slice(2)) : dir;
  return path.resolve(paths.project, d);
}

let active: Ledger | undefined;

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get<EngineService>("engine");
    const storage = () => ctx.services.tryGet<StorageService>("storage");
    const enabled = ctx.config.get("ledger.enabled") !== false;
    const days = (ctx.config.get("ledger.retention.days") as number | undefined) ?? DEFAULT_RETENTION_DAYS;
    const ledger = new Ledger(ledgerRoot(ctx.config.get("ledger.dir"), { ...ctx.paths, home: ctx.paths.home ?? os.homedir() }), enabled, ctx.log);
    active = ledger;
    ctx.provide("ledger", ledger);
    ctx.registerCommand("ledger", (argv, io) => ledgerCommand(argv, io, { ledger, storage: storage(), engine, activate: (e) => ctx.activate(e) }));
    // `oceancode storage repair` rebuilds the database from what the ledger holds
    storage()?.registerRecoverySource?.(new LedgerRecovery(ledger.root, () => ledger.settle()));
    if (!enabled) return;

    let swept = false;
    // before the tideline's tap (stage 0), so a resumed session's first cut is recorded in its index
    engine.hooks.sessionStart.tap({ name: ctx.id, stage: -50 }, async ({ session, source }) => {
      if (!swept) {
        swept = true;
        const s = storage();
        if (s) {
          const gone = await sweep(s, ledger, days, new Set([session.info.id])).catch((e: unknown) => {
            ctx.log.warn(`ledger: retention sweep failed: ${(e as Error).message}`);
            return [];
          });
          if (gone.length) ctx.log.info(`ledger: removed ${gone.length} session(s) idle over ${days} days, with their ledgers`);
        }
      }
      if (source === "resume") ledger.resume(session);
      else ledger.noteInfo(session);
    });
    engine.hooks.afterStep.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (rec) => {
      ledger.collect(rec.ctx.session);
    });
    engine.hooks.afterTurn.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (rec) => {
      ledger.turnEnded(rec.session, rec.turn, rec.reason, rec.rows);
    });
    engine.hooks.sessionEnd.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, async ({ session }) => {
      ledger.collect(session);
      ledger.noteInfo(session, true);
      await ledger.settle();
      ledger.close(session.info.id);
      ctx.log.debug(`ledger: ${(ledger.writer.bytesWritten / 1_048_576).toFixed(1)} MB written so far (each transcript write replaces its turn file)`);
    });
    ctx.kernelHooks.shutdown.tap({ name: ctx.id }, () => ledger.settle());
  },
  async deactivate() {
    await active?.settle();
    active = undefined;
  },
};
