/**
 * storage-postgres: the "storage" service over PostgreSQL, selected with
 * `extensions.replace: {"storage": "storage-postgres"}`. It taps the engine's session hooks exactly as the
 * bundled store does (write-behind rows, loadSession / latestSession, a claimSession lock), and contributes
 * `oceancode storage copy`. The URL is read from the user, managed and env layers (storage.url,
 * $OC_DATABASE_URL), never from a project's file, and is shown redacted everywhere. Retention is the
 * bundled store's engine and policy (`database.retention_days`, read from the bundled store's section:
 * manifest `reads`) over this store's backend (retention.ts).
 */
import type { CommandIO, ExtensionContext } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import { DEFAULT_RETENTION_DAYS } from "../storage/api.js";
import { globalSetting, tapRetention } from "../storage/kit.js";
import { redactText } from "./kit/shared.js";
import { pgAdmin } from "./admin.js";
import { storageCommand } from "./copy.js";
import { PgStore } from "./store.js";
import { pgRetention } from "./retention.js";
import { vacuumPg } from "./doctor.js";

let store: PgStore | undefined;

/** storage.url from the user/managed/env/host layers (a project file is ignored, with a warning), else $OC_DATABASE_URL. */
export function databaseUrl(ctx: Pick<ExtensionContext, "config" | "env" | "log">): string | undefined {
  const s = globalSetting(ctx.config, "storage.url");
  for (const f of s.ignoredIn) ctx.log.warn(`${f}: storage.url ignored: a project's file cannot point a run at a database; set it in the user config or $OC_DATABASE_URL`);
  if (typeof s.value === "string" && s.value) return s.value;
  const env = ctx.env.OC_DATABASE_URL;
  return env ? env : undefined;
}

/**
 * database.retention_days, as the bundled store reads it: the user/managed layers only (a project's file is
 * ignored, with a warning). The bundled store's schema is not loaded while it is replaced, so the value is
 * checked here: anything but a number >= 0 is ignored, with a warning, and the default applies.
 */
export function retentionDays(ctx: Pick<ExtensionContext, "config" | "log">): number {
  const r = globalSetting(ctx.config, "database.retention_days");
  for (const f of r.ignoredIn) ctx.log.warn(`${f}: database.retention_days ignored: retention is one policy for every project, so it is read from the user config only`);
  if (r.value === undefined) return DEFAULT_RETENTION_DAYS;
  if (typeof r.value === "number" && r.value >= 0) return r.value;
  ctx.log.warn(`database.retention_days: ${JSON.stringify(r.value)} is not a number of days >= 0; ignored, the default ${DEFAULT_RETENTION_DAYS} applies`);
  return DEFAULT_RETENTION_DAYS;
}

export default {
  activate(ctx: ExtensionContext) {
    const url = databaseUrl(ctx);
    const scrub = (m: string) => redactText(m, url);
    const pool = globalSetting(ctx.config, "storage.pool_size").value;
    const dbDays = retentionDays(ctx);
    const vacuum = globalSetting(ctx.config, "database.vacuum").value === true;
    const s = new PgStore({
      retentionDays: dbDays,
      url,
      poolSize: typeof pool === "number" && pool >= 1 ? pool : undefined,
      onError: (m) => ctx.log.error(scrub(m)),
      onInfo: (m) => ctx.log.info(scrub(m)),
      onWarn: (m) => ctx.log.warn(scrub(m)),
    });
    store = s;
    const engine = ctx.services.tryGet("engine");
    if (engine) {
      const h = engine.hooks;
      const name = ctx.id;
      // before the ledger (-50) opens the starting session: what retention removes, no store has open; a
      // database error it logs is scrubbed of the URL's password like every other message
      const log = { debug: (m: string) => ctx.log.debug(scrub(m)), info: (m: string) => ctx.log.info(scrub(m)), warn: (m: string) => ctx.log.warn(scrub(m)), error: (m: string) => ctx.log.error(scrub(m)) };
      // database.vacuum: a plain VACUUM of the session tables after a sweep that removed something
      const afterSweep = async (r: { removed: readonly unknown[] }) => {
        if (r.removed.length) log.warn(await vacuumPg(s));
      };
      tapRetention(engine, pgRetention(s), { name, dbDays, log, participants: s.retentionParticipants, openSessionIds: s.openSessionIds, ...(vacuum ? { afterSweep } : {}) });
      h.sessionStart.tap({ name, stage: "store" }, ({ session, source }) => s.sessionStarted(session, source));
      h.checkpoint.tap({ name, stage: "STAGE_AUDIT" }, (rec) => s.sessionProgress(rec.session));
      h.afterStep.tap({ name, stage: "STAGE_AUDIT" }, (rec) => s.sessionProgress(rec.ctx.session));
      h.afterTurn.tap({ name, stage: "STAGE_AUDIT" }, (rec) => s.sessionProgress(rec.session, true));
      h.sessionForked.tap({ name, stage: "STAGE_AUDIT" }, ({ session }) => s.sessionProgress(session, true));
      h.sessionEnd.tap({ name, stage: "STAGE_AUDIT" }, async ({ session }) => {
        s.sessionProgress(session, true);
        s.forget(session.info.id);
        await s.settle().catch(() => undefined);
      });
      // a session this process claimed is caught up from the ledger first when the ledger is ahead
      h.loadSession.tap({ name }, ({ id }) => s.openSession(id));
      h.latestSession.tap({ name }, ({ cwd }) => s.latestSessionId(cwd));
      // one process per session across every machine on the database: an advisory lock that dies with its connection
      h.claimSession.tap({ name }, ({ id, wait }) => s.claim(id, wait === true));
    }
    ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "close" }, () => s.close());
    // other stores (the ledger) join retention when this event activates them
    const participants = async () => {
      await ctx.activate("onEvent:retention");
      return s.retentionParticipants();
    };
    ctx.provide("storage", Object.assign(s, pgAdmin(s, { dbDays, participants, vacuum }, vacuum)));
    ctx.registerCommand("storage", (argv: string[], io: CommandIO) => storageCommand(argv, io, { url }));
  },
  async deactivate() {
    await store?.close();
    store = undefined;
  },
};
