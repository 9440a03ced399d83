/** Test helpers: temp dirs and sessions shaped exactly like the engine's (data, not mocks). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import type { Row, Session } from "../../engine/api.js";

export function tempDir(prefix = "oc-storage-"): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function newSession(id: string, cwd = "/proj"): Session {
  return {
    info: { id, cwd, model: "scripted/echo", createdAt: Date.now(), overrides: {} },
    rows: [],
    totals: { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 0, steps: 0 },
    nextSeq: 1,
    lastActive: Date.now(),
    ext: new Map(),
  };
}

function push(s: Session, row: Omit<Row, "seq">): Row {
  const full = { ...row, seq: s.nextSeq++ } as Row;
  s.rows.push(full);
  return full;
}

/** What the engine does in one step: (user row at the turn's start), assistant row, tool row, totals. */
export function step(s: Session, opts: { newTurn?: boolean; text?: string; toolOutput?: string } = {}): void {
  if (opts.newTurn || s.totals.turns === 0) {
    s.totals.turns += 1;
    push(s, { role: "user", text: opts.text ?? `prompt ${s.totals.turns}`, turn: s.totals.turns, step: 0, at: Date.now() });
  }
  s.totals.steps += 1;
  const turn = s.totals.turns;
  const callId = `call_${s.totals.steps}`;
  push(s, {
    role: "assistant",
    text: `step ${s.totals.steps}`,
    toolCalls: [{ id: callId, name: "bash", input: { command: "echo hi" } }],
    usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 50, cacheWriteTokens: 0 },
    model: s.info.model,
    turn,
    step: s.totals.steps,
    at: Date.now(),
  });
  push(s, { role: "tool", results: [{ callId, name: "bash", content: opts.toolOutput ?? "hi\n", isError: false }], turn, step: s.totals.steps, at: Date.now() });
  s.totals.usage.inputTokens += 100;
  s.totals.usage.outputTokens += 10;
}

/**
 * The on-disk prefix property: rows 1..k per session with no gap, no orphan row, events 1..m with no
 * gap, no event (that names a row with rowSeq) ahead of its row, totals never ahead of the rows.
 */
export function checkPrefix(file: string): { rows: Map<string, number>; events: number } {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const orphans = db.prepare("SELECT COUNT(*) AS n FROM rows WHERE session_id NOT IN (SELECT id FROM sessions)").get() as { n: number };
    expect(orphans.n).toBe(0);
    const rows = new Map<string, number>();
    for (const { session_id, n, mx, mn } of db.prepare("SELECT session_id, COUNT(*) AS n, MAX(seq) AS mx, MIN(seq) AS mn FROM rows GROUP BY session_id").all() as Array<{ session_id: string; n: number; mx: number; mn: number }>) {
      expect({ session_id, mn, mx }).toEqual({ session_id, mn: 1, mx: n }); // 1..k, no gap
      rows.set(session_id, n);
    }
    let events = 0;
    for (const { session_id, n, mx } of db.prepare("SELECT session_id, COUNT(*) AS n, MAX(seq) AS mx FROM events GROUP BY session_id").all() as Array<{ session_id: string; n: number; mx: number }>) {
      expect({ session_id, mx }).toEqual({ session_id, mx: n });
      events += n;
    }
    const ahead = db.prepare("SELECT COUNT(*) AS n FROM events e WHERE json_extract(e.json, '$.rowSeq') IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rows r WHERE r.session_id = e.session_id AND r.seq = json_extract(e.json, '$.rowSeq'))").get() as { n: number };
    expect(ahead.n).toBe(0);
    // a step is never split: an assistant row that called tools is followed by its tool row
    const split = db.prepare(
      "SELECT COUNT(*) AS n FROM rows a WHERE a.role = 'assistant' AND json_array_length(a.json, '$.toolCalls') > 0 AND NOT EXISTS (SELECT 1 FROM rows t WHERE t.session_id = a.session_id AND t.seq = a.seq + 1 AND t.role = 'tool')",
    ).get() as { n: number };
    expect(split.n).toBe(0);
    // totals never run ahead of the rows they count
    for (const s of db.prepare("SELECT id, totals FROM sessions").all() as Array<{ id: string; totals: string }>) {
      const steps = (JSON.parse(s.totals) as { steps?: number }).steps ?? 0;
      const onDisk = (db.prepare("SELECT COUNT(*) AS n FROM rows WHERE session_id = ? AND role = 'assistant'").get(s.id) as { n: number }).n;
      expect(steps).toBeLessThanOrEqual(onDisk);
    }
    return { rows, events };
  } finally {
    db.close();
  }
}

