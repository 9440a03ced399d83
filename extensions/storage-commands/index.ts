/**
 * The storage contract's commands, served for whichever extension provides the "storage" service (the
 * bundled SQLite store, or a replacement selected with extensions.replace): `oceancode sessions`,
 * `oceancode migrate`, `oceancode session pin|unpin|fork`, and the checks `oceancode doctor --storage` prints. It reads through the contract
 * (extensions/storage/api.ts) only.
 */
import type { CommandIO, ExtensionContext } from "../../kernel/api.js";
import { RESTORE_LINE, recoveryChecks, storageBlock } from "./doctor.js";
import { migrateCommand, sessionsCommand, type StorageProvider } from "./commands.js";
import { sessionCommand } from "./session.js";
import { EngineMissing } from "./errors.js";

/** The id of the extension providing "storage" (for messages such as "has no migrations"). */
function providerId(ctx: ExtensionContext): string {
  return ctx.contributions().find((c) => c.manifest.provides?.includes("storage"))?.extension ?? "storage";
}

export default {
  activate(ctx: ExtensionContext) {
    const provider: StorageProvider = {
      get id() {
        return providerId(ctx);
      },
      storage: () => ctx.services.get("storage"),
    };
    ctx.registerCommand("sessions", (argv: string[], io: CommandIO) => sessionsCommand(argv, io, provider));
    ctx.registerCommand("migrate", (argv: string[], io: CommandIO) => migrateCommand(argv, io, provider));
    const fork = async (id: string, at: string | undefined) => {
      // what a run activates (the engine, the store's taps, the ledger's journal path and copy): a fork is stored as a run stores
      await ctx.activate("onSession");
      const engine = ctx.services.tryGet("engine");
      if (!engine) throw EngineMissing();
      return engine.forkSession(id, at !== undefined ? { at } : {});
    };
    ctx.registerCommand("session", (argv: string[], io: CommandIO) => sessionCommand(argv, io, { id: provider.id, storage: provider.storage, fork }));
    const doctor = ctx.services.tryGet("doctor");
    doctor?.addChecks("storage", async () => {
      const storage = provider.storage();
      if (storage.doctorChecks) return storage.doctorChecks();
      return [{ status: "info", check: `storage ${storage.dbPath}`, detail: `the storage provider '${provider.id}' offers no checks` }];
    });
    doctor?.addChecks("recovery", () => recoveryChecks(provider.storage(), ctx.services.tryGet("ledger"), provider.id));
    doctor?.addBlock("storage", async () => {
      const storage = provider.storage();
      if (!storage.figures) return [`the storage provider '${provider.id}' offers no figures`, RESTORE_LINE];
      try {
        return storageBlock(await storage.figures());
      } catch (e) {
        return [`figures unavailable: ${(e as Error).message}`, RESTORE_LINE];
      }
    });
  },
};
