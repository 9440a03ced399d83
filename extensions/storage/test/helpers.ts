/** Test helpers: temp dirs and sessions shaped exactly like the engine's (data, not mocks). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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
