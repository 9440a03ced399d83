/**
 * What `oceancode doctor` prints for the storage contract, for whichever extension provides "storage":
 * the orphaned sessions (topic "recovery": a turn left running by a process that is gone, with what to
 * do) and the `storage:` block of `doctor --storage`, in the guide's shape (docs/operations-doctor.md).
 */
import fs from "node:fs";
import path from "node:path";
import type { OrphanedSession, StorageFigures, StorageService } from "../storage/api.js";
import type { DoctorCheck } from "../doctor/api.js";
import type { LedgerService, TurnIndexEntry } from "../ledger/api.js";

const DAY_MS = 86_400_000;
export const RESTORE_LINE = "restore is offline-only: stop oceancode before restoring a backup";

/**
 * The ledger's index has the last word on how a turn ended when it holds the turn: an ended turn (an
 * error, a bound) whose rows look open is no orphan. A turn marked crashed (the session was reopened, and
 * nothing ran since) still is.
 */
function endedInLedger(ledger: LedgerService | undefined, o: OrphanedSession): boolean {
  if (!ledger?.enabled) return false;
  try {
    const index = JSON.parse(fs.readFileSync(path.join(ledger.dirOf(o.id), "index.json"), "utf8")) as { turns?: TurnIndexEntry[] };
    const t = index.turns?.find((x) => x.turn === o.turn);
    return t !== undefined && t.endedAt !== undefined && t.reason !== "crashed";
  } catch {
    return false;
  }
}

export function orphanLine(o: OrphanedSession): DoctorCheck {
  return {
    status: "warn",
    check: `orphaned session ${o.id}`,
    detail:
      `turn ${o.turn} was left running by a process that is gone (killed or crashed; last stored seq ${o.lastSeq}, last active ${new Date(o.lastActive).toISOString()}, in ${o.cwd}); ` +
      `resume it with \`oceancode run --resume ${o.id} <message>\` (or \`oceancode run -c <message>\` in that directory); if it will not open, \`oceancode storage repair\` rebuilds the database from the ledger`,
  };
}

export async function recoveryChecks(storage: StorageService, ledger: LedgerService | undefined, providerId: string): Promise<DoctorCheck[]> {
  if (!storage.orphans) return [{ status: "info", check: "orphaned sessions", detail: `not checked: the storage provider '${providerId}' cannot tell` }];
  let all: OrphanedSession[];
  try {
    all = await storage.orphans();
  } catch (e) {
    // a database that cannot be read is doctor --storage's finding (a FAIL there, naming the fix)
    return [{ status: "warn", check: "orphaned sessions", detail: `not checked: ${(e as Error).message} (oceancode doctor --storage checks the database)` }];
  }
  const found = all.filter((o) => !endedInLedger(ledger, o));
  if (found.length === 0) return [{ status: "ok", check: "orphaned sessions", detail: "none (no turn was left running by a process that is gone)" }];
  const lines = found.slice(0, 20).map(orphanLine);
  if (found.length > 20) lines.push({ status: "warn", check: "orphaned sessions", detail: `and ${found.length - 20} more` });
  return lines;
}

function days(ms: number): string {
  const n = Math.max(0, Math.floor(ms / DAY_MS));
  return `${n} day${n === 1 ? "" : "s"}`;
}

/** The guide's `storage:` block (plus retention due and free disk), one line each, unindented. */
export function storageBlock(f: StorageFigures, now = Date.now()): string[] {
  const lines = [`${f.name} ${f.bytes} bytes (wal ${f.walBytes === undefined ? "n/a" : `${f.walBytes} bytes`})`, `sessions=${f.sessions}`];
  if (f.ledgerBytes !== undefined) lines.push(`ledger ${f.ledgerBytes} bytes, ${f.ledgerOldest !== undefined ? `oldest ${days(now - f.ledgerOldest)}` : "no sessions"}`);
  else lines.push("ledger off");
  if (f.vacuum) lines.push(`vacuum ${f.vacuum.on ? "on" : "off (database.vacuum)"}: ${f.vacuum.detail}`);
  lines.push(`retention due: ${f.retentionDue.sessions} session(s), ${f.retentionDue.bytes} bytes at the next run's start (oceancode sessions --expiring lists them)`);
  lines.push(f.freeBytes === undefined ? `free disk unknown (${f.freeDir})` : `free disk ${f.freeBytes} bytes (${f.freeDir})`);
  lines.push(RESTORE_LINE);
  return lines;
}
