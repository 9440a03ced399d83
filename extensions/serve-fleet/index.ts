/**
 * serve-fleet: a FleetService (`oceancode/api/serve`) over the PostgreSQL database the store uses, handed
 * to the serve service (useFleet) when a server starts (activation event FLEET_EVENT, so a `run` or the
 * pager never loads it). Only when the storage service is a PostgreSQL one (its dbPath is a postgres:// URL,
 * as storage-postgres shows it, redacted) and a URL is configured; otherwise it stands aside and the
 * server runs alone. Activation connects nothing: the server calls start().
 */
import crypto from "node:crypto";
import type { ExtensionContext } from "../../kernel/api.js";
import type { ServeService } from "../serve/api.js";
import type { StorageService } from "../storage/api.js";
import { globalSetting } from "../storage/kit.js";
import { PgFleet } from "./fleet.js";

function databaseUrl(ctx: Pick<ExtensionContext, "config" | "env">): string | undefined {
  const s = globalSetting(ctx.config, "storage.url").value;
  if (typeof s === "string" && s) return s;
  return ctx.env.OC_DATABASE_URL || undefined;
}

function positiveInt(v: string | undefined): number | undefined {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : undefined;
}

let fleet: PgFleet | undefined;

export default {
  activate(ctx: ExtensionContext) {
    const storage = ctx.services.tryGet("storage");
    const serve = ctx.services.tryGet("serve");
    const url = databaseUrl(ctx);
    if (!serve || !storage || !url || !/^postgres(ql)?:\/\//i.test(storage.dbPath)) return;
    const instanceId = ctx.env.OC_INSTANCE_ID || `oc-${crypto.randomBytes(4).toString("hex")}`;
    const sweep = positiveInt(ctx.env.OC_FLEET_SWEEP_MS);
    const prune = positiveInt(ctx.env.OC_FLEET_PRUNE_MS);
    fleet = new PgFleet({ url, instanceId, log: ctx.log, ...(sweep ? { sweepMs: sweep } : {}), ...(prune ? { prune: { everyMs: prune } } : {}) });
    serve.useFleet(fleet);
    ctx.kernelHooks.shutdown.tap({ name: ctx.id, stage: "close" }, () => fleet?.stop());
  },
  async deactivate() {
    await fleet?.stop();
    fleet = undefined;
  },
};
