/** Figures any store's `doctor --storage` block shares (published through api.ts; types only imported). */
import type { RetentionParticipant, StorageFigures } from "./api.js";

/** The ledger's (and any other participant's) bytes and its oldest session's last activity. */
export function participantFigures(participants: readonly RetentionParticipant[]): Pick<StorageFigures, "ledgerBytes" | "ledgerOldest" | "ledgerSessions"> {
  if (participants.length === 0) return {};
  let bytes = 0;
  let oldest: number | undefined;
  let n = 0;
  for (const p of participants)
    for (const id of p.ids()) {
      n++;
      bytes += p.bytes(id);
      const t = p.describe(id).lastActive;
      if (t > 0 && (oldest === undefined || t < oldest)) oldest = t;
    }
  return { ledgerBytes: bytes, ledgerSessions: n, ...(oldest !== undefined ? { ledgerOldest: oldest } : {}) };
}

