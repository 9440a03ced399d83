/** `oceancode storage repair`: rebuild a damaged oceancode.db from the session ledger and say what came back. */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import type { DatabaseCheck, RecoverySource } from "./api.js";
import { repairDatabase, type RepairReport } from "./repair.js";
import { catchUpAll, type CatchUpReport } from "./reconcile-db.js";

export const STORAGE_USAGE = "usage: oceancode storage repair [--force] [--db <path>]";

export interface StorageCommandDeps {
  /** the database file (--db on the command wins) */
  file(flag: string | undefined): string;
  /** activate every extension that can give sessions back, then list them */
  sources(): Promise<readonly RecoverySource[]>;
  /** database.retention_days: a session only the ledger holds, idle past it, aged out (it is not brought back) */
  retentionDays: number;
}

/** A healthy file the ledger is ahead of, caught up in place. */
function printCatchUp(io: CommandIO, file: string, before: DatabaseCheck, r: CatchUpReport, ms: number): void {
  const out: string[] = [`${file}: ${describeCheck(before)}; the ledger holds rows it lacks: caught up in place (nothing moved aside)`];
  for (const c of r.caughtUp) out.push(`  ${c.id}  from ${c.source}: ${c.rows} row(s) written back (seq ${c.from}–${c.to}, ${c.turns} turn(s)); events of those steps are not in the ${c.source}`);
  for (const b of r.busy) out.push(`  - ${b}`);
  if (r.refused.length) {
    out.push("not caught up:");
    for (const l of r.refused) out.push(`  - ${l}`);
  }
  const rows = r.caughtUp.reduce((n, c) => n + c.rows, 0);
  const turns = r.caughtUp.reduce((n, c) => n + c.turns, 0);
  out.push(`STORAGE_REPAIRED sessions=${r.caughtUp.length} turns=${turns} rows=${rows} events=0 not_recovered=${r.refused.length + r.busy.length} ms=${Math.round(ms)}`);
  io.stdout.write(`${out.join("\n")}\n`);
}

function describeCheck(c: DatabaseCheck): string {
  if (c.status === "ok") return `quick_check ok (schema v${c.schema ?? 0}, ${c.sessions ?? 0} session(s))`;
  if (c.status === "absent") return "no database file: building one";
  return `${c.status}: ${c.detail}`;
}

function print(io: CommandIO, r: RepairReport): void {
  const out: string[] = [`${r.file}: ${describeCheck(r.before)}`];
  out.push(r.sources.length ? `rebuilt from: ${r.sources.map((s) => `${s.name} (${s.location})`).join(", ")}` : "rebuilt from: no recovery source is enabled (is the ledger extension off?); only what the damaged file still reads");
  for (const s of r.sessions) {
    out.push(`  ${s.id}  from ${s.from}: ${s.turns} turn(s), ${s.rows} row(s), ${s.events} event(s)`);
    for (const g of s.gaps) out.push(`    - ${g}`);
  }
  for (const m of r.movedAside) out.push(`moved aside: ${m}`);
  if (r.lost.length) {
    out.push("not recovered:");
    for (const l of r.lost) out.push(`  - ${l}`);
  }
  const sum = (k: "turns" | "rows" | "events") => r.sessions.reduce((n, s) => n + s[k], 0);
  out.push(`STORAGE_REPAIRED sessions=${r.sessions.length} turns=${sum("turns")} rows=${sum("rows")} events=${sum("events")} not_recovered=${r.lost.length} ms=${Math.round(r.ms)}`);
  io.stdout.write(`${out.join("\n")}\n`);
}

export async function storageCommand(argv: string[], io: CommandIO, deps: StorageCommandDeps): Promise<number> {
  const bad = (m: string) => {
    io.stderr.write(`oceancode storage: ${m}\n${STORAGE_USAGE}\n`);
    return 2;
  };
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h") {
    io.stdout.write(`${STORAGE_USAGE}\nCheck oceancode.db and, when SQLite reports it damaged, rebuild it from the session ledger; the damaged file is kept beside it.\n`);
    return 0;
  }
  if (sub === "copy") {
    // a stand-in that is not selected is disabled, so its commands are not here: say how to reach it
    return bad(
      'storage copy belongs to storage-postgres: select it with extensions.replace {"storage": "storage-postgres"} and storage.url (or $OC_DATABASE_URL), ' +
        "then run oceancode storage copy --from <this oceancode.db> (docs/storage-postgres.md)",
    );
  }
  if (sub !== "repair") return bad(sub === undefined ? "a subcommand is required (repair)" : `unknown subcommand '${sub}'`);
  let values: { force?: boolean; db?: string };
  try {
    values = parseArgs({ args: rest, options: { force: { type: "boolean" }, db: { type: "string" } }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    return bad((e as Error).message);
  }
  const file = deps.file(values.db);
  try {
    const sources = await deps.sources();
    const r = await repairDatabase({ file, sources, force: values.force === true });
    if (!r.repaired && r.before.locked) {
      // never rebuilt under a process that holds it: its writes would land in the file moved aside
      io.stderr.write(`oceancode storage repair: ${r.before.detail}\n`);
      return 1;
    }
    if (!r.repaired && r.before.status === "unreadable") {
      io.stderr.write(`oceancode storage repair: ${file}: ${r.before.detail}; fix that first, or pass --force to rebuild it from the ledger anyway\n`);
      return 1;
    }
    if (!r.repaired && r.before.status === "ok") {
      const t0 = performance.now();
      const c = await catchUpAll(file, sources, deps.retentionDays);
      if (c.caughtUp.length || c.refused.length || c.busy.length) {
        printCatchUp(io, file, r.before, c, performance.now() - t0);
        return c.refused.length ? 1 : 0;
      }
    }
    if (!r.repaired) {
      io.stdout.write(`${file}: ${describeCheck(r.before)}; nothing to repair (--force rebuilds it from the ledger anyway)\nSTORAGE_OK\n`);
      return 0;
    }
    print(io, r.report);
    return 0;
  } catch (e) {
    io.stderr.write(`oceancode storage repair: ${file}: ${(e as Error).message}\n`);
    return 1;
  }
}
