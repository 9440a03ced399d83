/** The whole tool outputs behind truncated results (the transcript keeps them whole). */
import fs from "node:fs";
import type { Row } from "../engine/api.js";

export async function readFullOutputs(rows: readonly Row[]): Promise<Map<string, string>> {
  const full = new Map<string, string>();
  for (const r of rows) {
    if (r.role !== "tool") continue;
    for (const res of r.results) {
      const p = res.truncated?.fullPath;
      if (!p) continue;
      try {
        full.set(res.callId, await fs.promises.readFile(p, "utf8"));
      } catch {
        // the full copy is gone: the transcript keeps what the model saw and says so
      }
    }
  }
  return full;
}
