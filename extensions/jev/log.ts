/**
 * The decision log: one JSON line per decision or label in `<ledger root>/<session>/jev-decisions.jsonl`.
 * A state over 8 KiB is written in full once to `jev-states/<state_hash>.json` beside it and the row
 * keeps a head/tail excerpt. Best effort: the first write failure is logged once, nothing throws. Rows
 * never carry the key, the endpoint or a header value; a URL in a reason string becomes `<url>`.
 */
import fs from "node:fs";
import path from "node:path";
import type { JevDecisionRow, JevLabelRow } from "./api.js";
import { scrubUrls } from "./client/http.js";
import { headTail } from "./state.js";

export const DECISIONS_FILE = "jev-decisions.jsonl";
export const STATES_DIR = "jev-states";
export const STATE_INLINE_MAX = 8 * 1024;

export interface DecisionLog {
  record(row: Omit<JevDecisionRow, "type" | "at">): void;
  label(row: Omit<JevLabelRow, "type" | "at">): void;
}

export function createLog(dirOf: (sessionId: string) => string | undefined, warn: (s: string) => void): DecisionLog {
  let warned = false;
  const fail = (e: unknown) => {
    if (warned) return;
    warned = true;
    warn(`jev: could not write the decision log (${scrubUrls(e instanceof Error ? e.message : String(e))}); later failures are not reported`);
  };
  const append = (session: string, row: object) => {
    try {
      const dir = dirOf(session);
      if (!dir) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.appendFileSync(path.join(dir, DECISIONS_FILE), `${JSON.stringify(row)}\n`);
    } catch (e) {
      fail(e);
    }
  };
  return {
    record(r) {
      let state: unknown = r.state;
      const json = JSON.stringify(r.state ?? null);
      if (Buffer.byteLength(json) > STATE_INLINE_MAX) {
        try {
          const dir = dirOf(r.session);
          if (dir) {
            const file = path.join(dir, STATES_DIR, `${r.state_hash}.json`);
            if (!fs.existsSync(file)) {
              fs.mkdirSync(path.dirname(file), { recursive: true });
              fs.writeFileSync(file, json);
            }
          }
        } catch (e) {
          fail(e);
        }
        state = { excerpt: headTail(json, 4096), full: `${STATES_DIR}/${r.state_hash}.json` };
      }
      const answers = typeof r.answers === "string" ? scrubUrls(r.answers) : r.answers;
      append(r.session, { type: "decision", at: Date.now(), ...r, state, answers });
    },
    label(r) {
      append(r.session, { type: "label", at: Date.now(), ...r });
    },
  };
}
