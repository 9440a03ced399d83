/**
 * The session ledger: taps the engine's step and turn hooks to write transcripts behind the step, the
 * index files and SESSION.md at turn end, and the journal tree; joins the storage extension's retention
 * sweep (ledger.retention_days); contributes `oceancode ledger`. See docs/ledger.md.
 */
import os from "node:os";
import path from "node:path";
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import { type StorageService } from "../storage/api.js";
import { globalSetting } from "../storage/kit.js";
import { Ledger } from "./ledger.js";
import { DEFAULT_RETENTION_DAYS, ledgerParticipant } from "./retention.js";
import { ledgerCommand } from "./commands.js";
import { LedgerRecovery } from "./recover.js";
import { keepJournalPath } from "./fork.js";
import { rowsByTurn } from "./verify.js";

export function ledgerRoot(dir: unknown, paths: { home: string; project: string; dataDir: string }): string {
  if (typeof dir !== "string" || dir === "") return path.join(paths.dataDir, "session-ledger");
  const d = dir === "~" ? paths.home : dir.startsWith("~/") ? path.join(paths.home, dir.slice(2)) : dir;
  return path.resolve(paths.project, d);
}

let active: Ledger | undefined;

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const storage = () => ctx.services.tryGet("storage");
    const enabled = ctx.config.get("ledger.enabled") !== false;
    const ledger = new Ledger(ledgerRoot(ctx.config.get("ledger.dir"), { ...ctx.paths, home: ctx.paths.home ?? os.homedir() }), enabled, ctx.log);
    active = ledger;
    ctx.provide("ledger", ledger);
    ctx.registerCommand("ledger", (argv, io) => ledgerCommand(argv, io, { ledger, storage: storage(), engine, activate: (e) => ctx.activate(e) }));
    const retention = globalSetting(ctx.config, "ledger.retention_days");
    for (const f of retention.ignoredIn) {
      ctx.log.warn(`${f}: ledger.retention_days ignored: retention is one policy for every project, so it is read from the user config only`);
    }
    const days = typeof retention.value === "number" && retention.value >= 0 ? retention.value : DEFAULT_RETENTION_DAYS;
    // the storage extension runs the sweep; ledgers written while ledger.enabled was on still age out when it is off
    storage()?.addRetentionParticipant?.(ledgerParticipant(ledger, days));
    // `oceancode storage repair` rebuilds the database from what the ledger holds
    storage()?.registerRecoverySource?.(new LedgerRecovery(ledger.root, () => ledger.settle()));
    if (!enabled) return;

    // before the tideline's tap (stage 0), so a resumed session's first cut is recorded in its index
    engine.hooks.sessionStart.tap({ name: ctx.id, stage: "resume" }, async ({ session, source }) => {
      if (session.info.parentId) ledger.nest(session.info.id, session.info.parentId);
      if (source === "resume") {
        ledger.resume(session); // open, rows.jsonl, rows the transcript missed, damaged transcripts rewritten
        ledger.closeCrashed(session); // a last turn that never ended: the process died mid-turn
      } else ledger.noteInfo(session);
    });
    // the prompt and a step's tool calls reach rows.jsonl before the engine waits (as storage does)
    engine.hooks.checkpoint.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (rec) => {
      ledger.collect(rec.session);
    });
    engine.hooks.afterStep.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (rec) => {
      ledger.collect(rec.ctx.session);
    });
    engine.hooks.afterTurn.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (rec) => {
      ledger.turnEnded(rec.session, rec.turn, rec.reason, rec.rows, rec.stoppedBy);
    });
    // a fork holds the journal's path to its entry (turns undone before it stay out), then is written whole
    engine.hooks.forkRows.tap({ name: ctx.id }, async (rows, { from, atSeq }) => {
      await ledger.settle(); // the journal file holds every leaf move made so far
      return keepJournalPath(ledger, from.id, rows, atSeq);
    });
    engine.hooks.sessionForked.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, ({ session }) => {
      ledger.noteInfo(session, true);
      ledger.collect(session);
      for (const [turn, rows] of rowsByTurn(session.rows)) ledger.turnEnded(session, turn, "forked", rows);
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
