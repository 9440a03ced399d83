/** `oceancode doctor [--storage]`: one line per health check, then DOCTOR_OK or DOCTOR_FAIL problems=<n>. */
import { parseArgs } from "node:util";
import type { ExtensionContext, CommandIO } from "../../kernel/api.js";
import { checkDatabase, databaseFile } from "../storage/api.js";
import { configChecks, extensionChecks, requirementsCheck, dataDirCheck, formatLine, type CheckLine } from "./checks.js";

const USAGE = "usage: oceancode doctor [--storage]";

/**
 * --storage: the database file's size and SQLite's quick_check, on a read-only connection (storage's
 * published checkDatabase; storage is declared `optional` in the manifest, since this is its code).
 */
async function storageChecks(ctx: ExtensionContext): Promise<CheckLine[]> {
  const { file: db, isDefault } = databaseFile(ctx.config, ctx.paths.dataDir);
  if (!ctx.services.has("storage")) return [{ status: "info", check: `storage ${db}`, detail: "the storage extension is disabled or not installed: not checked" }];
  const c = await checkDatabase(db);
  const sizes = `${c.bytes} bytes (wal ${c.walBytes} bytes)`;
  switch (c.status) {
    case "absent":
      return [{ status: "info", check: `storage ${db}`, detail: c.detail }];
    case "ok":
      return [{ status: "ok", check: `storage ${db}`, detail: `${sizes}, quick_check ok, schema v${c.schema ?? 0}, ${c.sessions ?? 0} session(s)` }];
    case "unreadable":
      return [{ status: "FAIL", check: `storage ${db}`, detail: `${sizes}, cannot be checked: ${c.detail}; fix its permissions` }];
    case "damaged": {
      const fix = isDefault ? "oceancode storage repair" : `oceancode --db ${db} storage repair`;
      return [{ status: "FAIL", check: `storage ${db}`, detail: `${sizes}, damaged (${c.detail}); rebuild it from the session ledger with \`${fix}\` (the damaged file is kept)` }];
    }
  }
}

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerCommand("doctor", async (argv: string[], io: CommandIO) => {
      let storage = false;
      try {
        const { values } = parseArgs({ args: argv, options: { storage: { type: "boolean" }, help: { type: "boolean", short: "h" } }, strict: true });
        if (values.help) {
          io.stdout.write(`${USAGE}\n`);
          return 0;
        }
        storage = values.storage === true;
      } catch (e) {
        io.stderr.write(`oceancode doctor: ${(e as Error).message}\n${USAGE}\n`);
        return 2;
      }
      const info = ctx.introspect();
      const lines: CheckLine[] = [
        ...configChecks(info),
        ...extensionChecks(info),
        requirementsCheck(info),
        dataDirCheck(ctx.paths.dataDir),
      ];
      if (storage) {
        lines.push(...(await storageChecks(ctx)));
      }
      for (const l of lines) io.stdout.write(`${formatLine(l)}\n`);
      const problems = lines.filter((l) => l.status === "FAIL").length;
      io.stdout.write(problems ? `DOCTOR_FAIL problems=${problems}\n` : "DOCTOR_OK\n");
      return problems ? 1 : 0;
    });
  },
};
