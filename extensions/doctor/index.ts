/** `oceancode doctor [--storage]`: one line per health check, then DOCTOR_OK or DOCTOR_FAIL problems=<n>. */
import { parseArgs } from "node:util";
import type { ExtensionContext, CommandIO } from "../../kernel/api.js";
import { DOCTOR_RECOVERY_EVENT, DOCTOR_STORAGE_EVENT, type DoctorCheck, type DoctorService } from "./api.js";
import { doctorRoutes } from "./routes.js";
import { configChecks, extensionChecks, requirementsCheck, dataDirCheck, formatLine, type CheckLine } from "./checks.js";
import { crashChecks } from "./crashes.js";

const USAGE = "usage: oceancode doctor [--storage]";

/**
 * A topic's checks, from whichever extensions answered `event` (the storage contract's commands answer for
 * the "storage" service: the bundled store's file sizes and quick_check on a read-only connection, and the
 * orphaned sessions). Nobody answering is itself a problem for storage, a note for recovery.
 */
async function topicChecks(ctx: ExtensionContext, event: string, topic: string, nobody: CheckLine): Promise<CheckLine[]> {
  await ctx.activate(event).catch(() => undefined);
  const runs = topics.get(topic) ?? [];
  if (!runs.length) return [nobody];
  const out: CheckLine[] = [];
  for (const run of runs) {
    try {
      out.push(...(await run()));
    } catch (e) {
      out.push({ status: "FAIL", check: topic, detail: `the ${topic} checks failed: ${(e as Error).message}` });
    }
  }
  return out;
}

async function blockLines(topic: string): Promise<string[]> {
  const runs = blocks.get(topic) ?? [];
  if (!runs.length) return [];
  const out = [`${topic}:`];
  for (const run of runs) {
    try {
      out.push(...(await run()).map((l) => `  ${l}`));
    } catch (e) {
      out.push(`  (the ${topic} figures failed: ${(e as Error).message})`);
    }
  }
  return out;
}

const topics = new Map<string, Array<() => Promise<DoctorCheck[]>>>();
const blocks = new Map<string, Array<() => Promise<string[]>>>();
const add = <T>(m: Map<string, T[]>, topic: string, run: T) => void m.set(topic, [...(m.get(topic) ?? []), run]);

/** Every check doctor prints, in its order, and the figure blocks after them (the command and GET /doctor). */
async function allChecks(ctx: ExtensionContext, storage: boolean): Promise<{ lines: CheckLine[]; block: string[] }> {
  const info = ctx.introspect();
  const lines: CheckLine[] = [
    ...configChecks(info),
    ...extensionChecks(info),
    requirementsCheck(info),
    dataDirCheck(ctx.paths.dataDir),
    ...crashChecks(ctx.paths.stateDir),
    ...(await topicChecks(ctx, DOCTOR_RECOVERY_EVENT, "recovery", { status: "info", check: "orphaned sessions", detail: "not checked: no extension answered for the storage service (see oceancode inspect)" })),
  ];
  let block: string[] = [];
  if (storage) {
    lines.push(...(await topicChecks(ctx, DOCTOR_STORAGE_EVENT, "storage", { status: "FAIL", check: "storage", detail: "no extension answered for the storage service (is it disabled or failed? see oceancode inspect)" })));
    block = await blockLines("storage");
  }
  return { lines, block };
}

export default {
  activate(ctx: ExtensionContext) {
    const service: DoctorService = { addChecks: (topic, run) => add(topics, topic, run), addBlock: (topic, run) => add(blocks, topic, run) };
    ctx.provide("doctor", service);
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of doctorRoutes(async (storage) => (await allChecks(ctx, storage)).lines)) routes.add(r, ctx.id);
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
      const { lines, block } = await allChecks(ctx, storage);
      for (const l of lines) io.stdout.write(`${formatLine(l)}\n`);
      for (const l of block) io.stdout.write(`${l}\n`);
      const problems = lines.filter((l) => l.status === "FAIL").length;
      io.stdout.write(problems ? `DOCTOR_FAIL problems=${problems}\n` : "DOCTOR_OK\n");
      return problems ? 1 : 0;
    });
  },
};
