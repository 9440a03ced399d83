/**
 * Retention of the ledger's directories. The storage extension runs the sweep (one policy, one line
 * for the user); the ledger joins it as a participant: it says which sessions it holds, how big and
 * how recent each is, and removes a directory when the session is idle past `ledger.retention_days`.
 */
import fs from "node:fs";
import path from "node:path";
import type { ResolvedConfig } from "../../kernel/config.js";
import type { RetentionParticipant } from "../storage/api.js";
import type { Ledger } from "./ledger.js";

export const DEFAULT_RETENTION_DAYS = 30;
const SESSION_DIR = /^[A-Za-z0-9_.-]+$/;

/** Total bytes and newest modification time under a directory (a ledger is a few files per turn). */
function scan(dir: string): { bytes: number; newest: number } {
  let bytes = 0;
  let newest = 0;
  const walk = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        try {
          const st = fs.lstatSync(p);
          bytes += st.size;
          newest = Math.max(newest, st.mtimeMs);
        } catch {
          /* removed meanwhile */
        }
      }
    }
  };
  walk(dir);
  return { bytes, newest };
}

/** The project a ledger was written in, from its page ("working directory: <cwd> (t1)"). */
function cwdOf(dir: string): string | undefined {
  try {
    const page = JSON.parse(fs.readFileSync(path.join(dir, "page.json"), "utf8")) as { sections?: Record<string, Array<{ key?: string; text?: string }>> };
    const line = Object.values(page.sections ?? {})
      .flat()
      .find((l) => l.key === "env:cwd");
    return /^working directory: (.+?) \(t\d+\)$/.exec(line?.text ?? "")?.[1];
  } catch {
    return undefined;
  }
}

export function ledgerParticipant(ledger: Ledger, days: number): RetentionParticipant {
  return {
    name: "ledger",
    days,
    ids() {
      try {
        return fs
          .readdirSync(ledger.root, { withFileTypes: true })
          .filter((e) => e.isDirectory() && SESSION_DIR.test(e.name))
          .map((e) => e.name);
      } catch {
        return [];
      }
    },
    has(id) {
      try {
        return SESSION_DIR.test(id) && fs.statSync(ledger.dirOf(id)).isDirectory();
      } catch {
        return false;
      }
    },
    describe(id) {
      const dir = ledger.dirOf(id);
      const cwd = cwdOf(dir);
      return { lastActive: scan(dir).newest, ...(cwd ? { cwd } : {}) };
    },
    bytes: (id) => scan(ledger.dirOf(id)).bytes,
    async remove(id) {
      await ledger.settle();
      ledger.removeDir(id);
    },
  };
}

/**
 * `ledger.retention.days` (the old key) still loads, as `ledger.retention_days` (the manifest's alias);
 * the user hears about it once per file that still uses it.
 */
export function oldKeyWarnings(config: ResolvedConfig): string[] {
  const out: string[] = [];
  for (const layer of config.layers) {
    const raw = layer.doc?.value;
    const ledger = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).ledger : undefined;
    const retention = typeof ledger === "object" && ledger !== null ? (ledger as Record<string, unknown>).retention : undefined;
    if (typeof retention !== "object" || retention === null || !("days" in retention)) continue;
    const both = typeof ledger === "object" && ledger !== null && "retention_days" in ledger;
    out.push(
      `${layer.file ?? layer.name}: ledger.retention.days is now ledger.retention_days (default 30); ` +
        (both ? "this file sets both, so the old key is ignored: remove it" : "it is read as the new key for now: rename it"),
    );
  }
  return out;
}
