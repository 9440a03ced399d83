/** `oceancode doctor [--storage]`: one line per health check, then DOCTOR_OK or DOCTOR_FAIL problems=<n>. */
import fs from "node:fs";
import { parseArgs } from "node:util";
import type { ExtensionContext, CommandIO } from "../../kernel/api.js";
import type { StorageService } from "../storage/api.js";
import { configChecks, extensionChecks, requirementsCheck, dataDirCheck, formatLine, type CheckLine } from "./checks.js";

const USAGE = "usage: oceancode doctor [--storage]";

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

async function storageChecks(ctx: ExtensionContext): Promise<CheckLine[]> {
  const storage = ctx.services.tryGet<StorageService>("storage");
  if (!storage) return [{ status: "warn", check: "storage", detail: "no active extension provides the storage service" }];
  const sessions = await storage.listSessions();
  return [
    {
      status: "ok",
      check: `storage ${storage.dbPath}`,
      detail: `${size(storage.dbPath)} bytes (wal ${size(`${storage.dbPath}-wal`)} bytes) sessions=${sessions.length}`,
    },
  ];
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
        try {
          lines.push(...(await storageChecks(ctx)));
        } catch (e) {
          lines.push({ status: "FAIL", check: "storage", detail: (e as Error).message });
        }
      }
      for (const l of lines) io.stdout.write(`${formatLine(l)}\n`);
      const problems = lines.filter((l) => l.status === "FAIL").length;
      io.stdout.write(problems ? `DOCTOR_FAIL problems=${problems}\n` : "DOCTOR_OK\n");
      return problems ? 1 : 0;
    });
  },
};
