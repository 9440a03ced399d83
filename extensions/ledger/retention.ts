/** Retention: sessions idle longer than ledger.retention.days leave the database together with their ledger. */
import type { StorageService } from "../storage/api.js";
import type { Ledger } from "./ledger.js";

export async function sweep(storage: StorageService, ledger: Ledger, days: number, keep: Set<string>): Promise<string[]> {
  if (!(days > 0)) return [];
  await storage.settle();
  const stale = (await storage.staleSessions(days)).filter((id) => !keep.has(id));
  for (const id of stale) {
    await storage.deleteSession(id);
    ledger.removeDir(id);
  }
  return stale;
}
