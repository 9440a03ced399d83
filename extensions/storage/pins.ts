/**
 * Pins: sessions the retention sweep keeps, whatever their age (table `pins`, schema v3), and the
 * `oceancode session pin|unpin <id>` command. A pin guards every copy of the session: its rows in
 * oceancode.db and what other stores (the ledger) keep of it.
 */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import type { RetentionParticipant } from "./api.js";
import type { SqliteStore } from "./store.js";

export const SESSION_USAGE = "usage: oceancode session pin <session-id>\n       oceancode session unpin <session-id>";

export function isPinned(store: SqliteStore, id: string): boolean {
  return store.db().prepare(`SELECT 1 FROM pins WHERE session_id = ?`).get(id) !== undefined;
}

/** true when the pin is new. Written at once (a command, not a step: nothing is queued behind it). */
export function pin(store: SqliteStore, id: string, now = Date.now()): boolean {
  return store.db().prepare(`INSERT OR IGNORE INTO pins (session_id, pinned_at) VALUES (?, ?)`).run(id, now).changes > 0;
}

/** true when there was a pin to remove. */
export function unpin(store: SqliteStore, id: string): boolean {
  return store.db().prepare(`DELETE FROM pins WHERE session_id = ?`).run(id).changes > 0;
}

export interface SessionCommandDeps {
  store(): SqliteStore;
  /** bring in the other stores (the ledger) so a session only they still hold can be pinned */
  participants(): Promise<readonly RetentionParticipant[]>;
}

export async function sessionCommand(argv: string[], io: CommandIO, deps: SessionCommandDeps): Promise<number> {
  const bad = (msg: string) => {
    io.stderr.write(`oceancode session: ${msg}\n${SESSION_USAGE}\n`);
    return 2;
  };
  let positionals: string[];
  let help: boolean | undefined;
  try {
    const p = parseArgs({ args: argv, options: { help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
    positionals = p.positionals;
    help = p.values.help;
  } catch (e) {
    return bad((e as Error).message);
  }
  if (help) {
    io.stdout.write(`${SESSION_USAGE}\nA pinned session is never removed by retention (database rows and ledger alike); unpin hands it back to the policy.\n`);
    return 0;
  }
  const [sub, id, ...extra] = positionals;
  if (sub === undefined) return bad("a subcommand is required (pin or unpin)");
  if (sub !== "pin" && sub !== "unpin") return bad(`unknown subcommand '${sub}'`);
  if (id === undefined) return bad("a session id is required");
  if (extra.length) return bad(`one session id only (got ${[id, ...extra].join(" ")})`);
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) return bad(`'${id}' is not a session id`);
  const store = deps.store();
  try {
    await store.settle().catch(() => undefined);
    if (sub === "unpin") {
      const was = unpin(store, id);
      io.stdout.write(was ? `unpinned ${id}: retention applies to it again (oceancode sessions --expiring shows whether the next run removes it)\n` : `${id} was not pinned\n`);
      return 0;
    }
    const known = store.db().prepare(`SELECT 1 FROM sessions WHERE id = ?`).get(id) !== undefined || (await deps.participants()).some((p) => p.has(id));
    if (!known) {
      io.stderr.write(`oceancode session pin: no session '${id}' in ${store.dbPath} (list them with oceancode sessions --all)\n`);
      return 1;
    }
    const added = pin(store, id);
    io.stdout.write(added ? `pinned ${id}: retention keeps it until oceancode session unpin ${id}\n` : `${id} is already pinned\n`);
    return 0;
  } catch (e) {
    io.stderr.write(`oceancode session: ${(e as Error).message}\n`);
    return 1;
  }
}
