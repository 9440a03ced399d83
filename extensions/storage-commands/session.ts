/**
 * `oceancode session pin|unpin <id>` and `oceancode session fork <id> [--at <entry>] [--json]`, over
 * whichever extension provides the "storage" service: pins through the contract's optional `pins`, a
 * fork through the engine's forkSession (stored as a run stores it).
 */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import type { ForkResult } from "../engine/api.js";
import type { StorageProvider } from "./commands.js";

export const SESSION_USAGE = "usage: oceancode session pin <session-id>\n       oceancode session unpin <session-id>\n       oceancode session fork <session-id> [--at <entry>] [--json]";

export interface SessionCommandDeps extends StorageProvider {
  /** `session fork`: a new session from another's history (the engine's forkSession); undefined without an engine */
  fork?(id: string, at: string | undefined): Promise<ForkResult>;
}

export async function sessionCommand(argv: string[], io: CommandIO, deps: SessionCommandDeps): Promise<number> {
  const bad = (msg: string) => {
    io.stderr.write(`oceancode session: ${msg}\n${SESSION_USAGE}\n`);
    return 2;
  };
  let positionals: string[];
  let help: boolean | undefined;
  let at: string | undefined;
  let json: boolean | undefined;
  try {
    const p = parseArgs({ args: argv, options: { help: { type: "boolean", short: "h" }, at: { type: "string" }, json: { type: "boolean" } }, allowPositionals: true, strict: true });
    positionals = p.positionals;
    help = p.values.help;
    at = p.values.at;
    json = p.values.json;
  } catch (e) {
    return bad((e as Error).message);
  }
  if (help) {
    io.stdout.write(
      `${SESSION_USAGE}\nA pinned session is never removed by retention (database rows and ledger alike); unpin hands it back to the policy.\n` +
        `fork starts a new session from another's history up to --at <entry> (r<seq> or <seq> from the journal, or turn:<n>; default: all of it, along the active path); the source is not changed.\n`,
    );
    return 0;
  }
  const [sub, id, ...extra] = positionals;
  if (sub === undefined) return bad("a subcommand is required (pin, unpin or fork)");
  if (sub !== "pin" && sub !== "unpin" && sub !== "fork") return bad(`unknown subcommand '${sub}'`);
  if (id === undefined) return bad("a session id is required");
  if (extra.length) return bad(`one session id only (got ${[id, ...extra].join(" ")})`);
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) return bad(`'${id}' is not a session id`);
  if ((at !== undefined || json) && sub !== "fork") return bad(`--at and --json belong to fork`);
  if (sub === "fork") return forkCommand(io, deps, id, at, json === true);
  const storage = deps.storage();
  const pins = storage.pins;
  if (!pins) {
    io.stderr.write(`oceancode session ${sub}: the storage provider '${deps.id}' keeps no pins\n`);
    return 1;
  }
  try {
    if (sub === "unpin") {
      const was = await pins.unpin(id);
      io.stdout.write(was ? `unpinned ${id}: retention applies to it again (oceancode sessions --expiring shows whether the next run removes it)\n` : `${id} was not pinned\n`);
      return 0;
    }
    if (!(await pins.known(id))) {
      io.stderr.write(`oceancode session pin: no session '${id}' in ${storage.dbPath} (list them with oceancode sessions --all)\n`);
      return 1;
    }
    const added = await pins.pin(id);
    io.stdout.write(added ? `pinned ${id}: retention keeps it until oceancode session unpin ${id}\n` : `${id} is already pinned\n`);
    return 0;
  } catch (e) {
    io.stderr.write(`oceancode session: ${(e as Error).message}\n`);
    return 1;
  }
}

async function forkCommand(io: CommandIO, deps: SessionCommandDeps, id: string, at: string | undefined, json: boolean): Promise<number> {
  if (!deps.fork) {
    io.stderr.write("oceancode session fork: the engine extension is not enabled, so sessions cannot be forked\n");
    return 1;
  }
  try {
    const r = await deps.fork(id, at);
    if (json) io.stdout.write(`${JSON.stringify(r)}\n`);
    else io.stdout.write(`forked ${r.from} at ${r.entry}: ${r.id} (${r.turns} turn(s), ${r.rows} row(s)); continue it with oceancode run --session ${r.id} <message>\nSESSION_FORKED id=${r.id} from=${r.from} at=${r.entry} rows=${r.rows}\n`);
    return 0;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    io.stderr.write(`oceancode session fork: ${(e as Error).message}\n`);
    return code === "OC_ERR_FORK_ENTRY" ? 2 : 1;
  }
}
