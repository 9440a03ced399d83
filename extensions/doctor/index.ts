/** `oceancode doctor [--storage]`: one line per health check, then DOCTOR_OK or DOCTOR_FAIL problems=<n>. */
import { parseArgs } from "node:util";
import type { ExtensionContext, CommandIO } from "../../kernel/api.js";
import { DOCTOR_STORAGE_EVENT, type DoctorCheck, type DoctorService } from "./api.js";
import type { RouteRegistry } from "../serve/api.js";
import { doctorRoutes } from "./routes.js";
import { configChecks, extensionChecks, requirementsCheck, dataDirCheck, formatLine, type CheckLine } from "./checks.js";

const USAGE = "usage: oceancode doctor [--storage]";

/**
 * --storage: the checks of whichever extension provides the "storage" service, asked through the
 * storage contract (the bundled store: its file sizes and SQLite's quick_check on a read-only
 * connection). DOCTOR_STORAGE_EVENT activates the extension that serves the contract's commands; it
 * adds the checks here. Nobody answering is itself a problem.
 */
async function storageChecks(ctx: ExtensionContext): Promise<CheckLine[]> {
  await ctx.activate(DOCTOR_STORAGE_EVENT);
  const run = topics.get("storage");
  if (!run) return [{ status: "FAIL", check: "storage", detail: "no extension answered for the storage service (is it disabled or failed? see oceancode inspect)" }];
  try {
    return await run();
  } catch (e) {
    return [{ status: "FAIL", check: "storage", detail: `the storage checks failed: ${(e as Error).message}` }];
  }
}

/** Every check doctor prints, in its order (the command and GET /doctor). */
async function allChecks(ctx: ExtensionContext, storage: boolean): Promise<CheckLine[]> {
  const info = ctx.introspect();
  const lines: CheckLine[] = [...configChecks(info), ...extensionChecks(info), requirementsCheck(info), dataDirCheck(ctx.paths.dataDir)];
  if (storage) lines.push(...(await storageChecks(ctx)));
  return lines;
}

const topics = new Map<string, () => Promise<DoctorCheck[]>>();

export default {
  activate(ctx: ExtensionContext) {
    const service: DoctorService = { addChecks: (topic, run) => void topics.set(topic, run) };
    ctx.provide("doctor", service);
    const routes = ctx.services.tryGet<RouteRegistry>("routes");
    if (routes) for (const r of doctorRoutes((storage) => allChecks(ctx, storage))) routes.add(r, ctx.id);
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
      const lines = await allChecks(ctx, storage);
      for (const l of lines) io.stdout.write(`${formatLine(l)}\n`);
      const problems = lines.filter((l) => l.status === "FAIL").length;
      io.stdout.write(problems ? `DOCTOR_FAIL problems=${problems}\n` : "DOCTOR_OK\n");
      return problems ? 1 : 0;
    });
  },
};
