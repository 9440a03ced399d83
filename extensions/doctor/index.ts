/** `oceancode doctor [--storage]`: one line per health check, then DOCTOR_OK or DOCTOR_FAIL problems=<n>. */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ExtensionContext, CommandIO } from "../../kernel/api.js";
import { configChecks, extensionChecks, requirementsCheck, dataDirCheck, formatLine, type CheckLine } from "./checks.js";

const USAGE = "usage: oceancode doctor [--storage]";

function size(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * --storage: sizes of the database files, read from disk without opening the database (opening it
 * would activate the storage extension and, through its optional services, the engine).
 */
function storageChecks(ctx: ExtensionContext, env: NodeJS.ProcessEnv): CheckLine[] {
  const db = env.OC_DB ? path.resolve(env.OC_DB) : path.join(ctx.paths.dataDir, "oceancode.db");
  if (!fs.existsSync(db)) return [{ status: "info", check: `storage ${db}`, detail: "absent (created by the first session)" }];
  return [{ status: "ok", check: `storage ${db}`, detail: `${size(db)} bytes (wal ${size(`${db}-wal`)} bytes)` }];
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
        lines.push(...storageChecks(ctx, io.env));
      }
      for (const l of lines) io.stdout.write(`${formatLine(l)}\n`);
      const problems = lines.filter((l) => l.status === "FAIL").length;
      io.stdout.write(problems ? `DOCTOR_FAIL problems=${problems}\n` : "DOCTOR_OK\n");
      return problems ? 1 : 0;
    });
  },
};
