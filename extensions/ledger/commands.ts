/** `oceancode ledger path <id>`, `oceancode ledger rebuild <id> [--merge] [--yes]` and `ledger rebuild --all`. */
import { parseArgs } from "node:util";
import readline from "node:readline";
import type { CommandIO } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import type { Ledger } from "./ledger.js";
import { backlog, fold } from "./merge.js";

export const LEDGER_USAGE = "usage: oceancode ledger path [--db <path>] [--directory <dir>] <session-id>\n       oceancode ledger rebuild [--merge] [--yes] [--db <path>] [--directory <dir>] <session-id>\n       oceancode ledger rebuild --all [--db <path>]";

export interface LedgerDeps {
  ledger: Ledger;
  storage?: StorageService;
  engine: EngineService;
  activate(event: string): Promise<void>;
}

async function ask(io: CommandIO, question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export async function ledgerCommand(argv: string[], io: CommandIO, deps: LedgerDeps): Promise<number> {
  const bad = (msg: string) => {
    io.stderr.write(`oceancode ledger: ${msg}\n${LEDGER_USAGE}\n`);
    return 2;
  };
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h" || sub === undefined) {
    if (sub === undefined) return bad("a subcommand is required (path or rebuild)");
    io.stdout.write(`${LEDGER_USAGE}\n`);
    return 0;
  }
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { all: { type: "boolean" }, merge: { type: "boolean" }, yes: { type: "boolean", short: "y" }, db: { type: "string" }, directory: { type: "string" }, dir: { type: "string" } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    return bad((e as Error).message);
  }
  if (values.all) {
    if (sub !== "rebuild") return bad("--all belongs to rebuild");
    if (values.merge || values.yes) return bad("--all rebuilds mechanically: --merge takes one session");
    if (positionals.length) return bad(`--all takes no session id (got ${positionals.join(" ")})`);
    return rebuildAll(io, deps);
  }
  if (positionals.length !== 1) return bad(positionals.length === 0 ? "a session id is required" : `one session id only (got ${positionals.join(" ")})`);
  const id = positionals[0]!;
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) return bad(`'${id}' is not a session id`);
  if (sub === "path") {
    if (values.merge || values.yes) return bad("--merge and --yes belong to rebuild");
    // a sub-agent's folder is inside its parent's: the database knows the parent
    if (deps.storage) {
      await deps.storage.settle();
      const parentId = (await deps.storage.loadSession(id).catch(() => undefined))?.info.parentId;
      if (parentId) deps.ledger.nest(id, parentId);
    }
    io.stdout.write(`${deps.ledger.dirOf(id)}\n`);
    return 0;
  }
  if (sub !== "rebuild") return bad(`unknown subcommand '${sub}'`);
  if (values.yes && !values.merge) return bad("--yes goes with --merge");
  if (!deps.storage) {
    io.stderr.write("oceancode ledger rebuild: no storage extension is enabled, so there is no database to rebuild from\n");
    return 1;
  }
  await deps.storage.settle();
  const stored = await deps.storage.loadSession(id);
  if (!stored) {
    io.stderr.write(`oceancode ledger rebuild: no session '${id}' in ${deps.storage.dbPath} (list them with oceancode sessions)\n`);
    return 1;
  }
  if (stored.info.parentId) deps.ledger.nest(id, stored.info.parentId);
  const r = await deps.ledger.rebuild(stored);
  io.stdout.write(`LEDGER_REBUILT ${r.dir} turns=${r.turns} rows=${r.rows}\n`);
  if (!values.merge) return 0;
  const st = deps.ledger.open(id, stored.info.cwd, stored.info.model);
  const turns = backlog(st);
  if (turns.length === 0) {
    io.stdout.write("LEDGER_MERGED turns=0 lines=0 (nothing in the merge backlog)\n");
    return 0;
  }
  if (!values.yes) {
    if (!io.stdin.isTTY) {
      io.stderr.write(`oceancode ledger rebuild --merge: folding ${turns.length} turn(s) makes model calls to ${stored.info.model} and needs a yes; run it on a terminal to confirm, or pass --yes\n`);
      return 1;
    }
    const ok = await ask(io, `Fold the merge backlog (${turns.length} turn(s)) into SESSION.md with model calls to ${stored.info.model}? [y/N] `);
    if (!ok) {
      io.stderr.write("oceancode ledger rebuild --merge: not confirmed; the mechanical rebuild stands, nothing was sent to a model\n");
      return 1;
    }
  }
  const f = await fold(deps.engine, deps.activate, deps.ledger, st, stored.info.model);
  if (!f.ok) {
    io.stderr.write(`oceancode ledger rebuild --merge: ${f.message}; the mechanical rebuild stands\n`);
    return 1;
  }
  io.stdout.write(`LEDGER_MERGED turns=${f.turns} lines=${f.lines}\n`);
  return 0;
}

/**
 * Every session in the database, one after another (a lost ledger root, e.g. a fleet's shared folder, is
 * written again from the database alone). Sessions are loaded one at a time; parents are known before any
 * child is written, so a sub-agent's folder lands inside its parent's.
 */
async function rebuildAll(io: CommandIO, deps: LedgerDeps): Promise<number> {
  if (!deps.storage) {
    io.stderr.write("oceancode ledger rebuild: no storage extension is enabled, so there is no database to rebuild from\n");
    return 1;
  }
  await deps.storage.settle();
  const all = await deps.storage.listSessions({ limit: 100_000 });
  for (const s of all) if (s.parentId) deps.ledger.nest(s.id, s.parentId);
  let rows = 0;
  let failed = 0;
  for (const s of all) {
    const stored = await deps.storage.loadSession(s.id).catch((e: unknown) => {
      io.stderr.write(`oceancode ledger rebuild: session ${s.id}: ${(e as Error).message}\n`);
      return undefined;
    });
    if (!stored) {
      failed++;
      continue;
    }
    const r = await deps.ledger.rebuild(stored);
    rows += r.rows;
    io.stdout.write(`LEDGER_REBUILT ${r.dir} turns=${r.turns} rows=${r.rows}\n`);
  }
  io.stdout.write(`LEDGER_REBUILT_ALL sessions=${all.length - failed} rows=${rows}${failed ? ` failed=${failed}` : ""}\n`);
  return failed ? 1 : 0;
}
