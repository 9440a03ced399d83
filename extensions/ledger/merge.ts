/**
 * The model-assisted fold (`ledger rebuild --merge`): one provider call over the merge backlog (turns wholly
 * past the tideline, or every ended turn but the newest when the ledger was rebuilt) that proposes new
 * SESSION.md lines. Lines are added, stamped with the turns they came from; nothing is rewritten.
 */
import fs from "node:fs";
import path from "node:path";
import type { EngineService, ModelInfo, Provider, Row } from "../engine/api.js";
import { SECTIONS, type Section } from "./page.js";
import type { Ledger, SessionLedger } from "./ledger.js";

/** Per turn, at most this much transcript goes into the fold prompt. */
const MAX_TURN_CHARS = 24_000;

export function backlog(st: SessionLedger): number[] {
  const ended = st.turns.filter((t) => t.endedAt !== undefined && !(t as { folded?: boolean }).folded);
  const past = ended.filter((t) => t.pastTideline);
  if (past.length) return past.map((t) => t.turn);
  return ended.slice(0, -1).map((t) => t.turn);
}

export type FoldResult = { ok: true; turns: number; lines: number } | { ok: false; message: string };

export async function fold(engine: EngineService, activate: (e: string) => Promise<void>, ledger: Ledger, st: SessionLedger, modelId: string): Promise<FoldResult> {
  const turns = backlog(st);
  if (turns.length === 0) return { ok: true, turns: 0, lines: 0 };
  let model: ModelInfo;
  let provider: Provider | undefined;
  try {
    model = engine.models.resolve(modelId);
    provider = engine.providers.get(model.provider);
    if (!provider) {
      await activate(`onEvent:provider:${model.provider}`);
      provider = engine.providers.get(model.provider);
    }
  } catch (e) {
    return { ok: false, message: `not available for this model (${modelId}): ${(e as Error).message}` };
  }
  if (!provider) return { ok: false, message: `not available for this model (${modelId}): no provider '${model.provider}' is installed` };
  let material = "";
  for (const t of turns) {
    const e = st.turnByNum.get(t)!;
    let text = "";
    try {
      text = fs.readFileSync(path.join(st.dir, e.file), "utf8");
    } catch {
      continue;
    }
    material += `\n\n=== turn ${t} ===\n${text.length > MAX_TURN_CHARS ? `${text.slice(0, MAX_TURN_CHARS / 2)}\n…\n${text.slice(-MAX_TURN_CHARS / 2)}` : text}`;
  }
  const prompt =
    `Below is SESSION.md, the living page of a coding session, and the transcripts of turns ${turns.join(", ")}, which left the model's window. ` +
    `Write only NEW facts the page does not already carry, one per line, each as "<Section>: <text>" where Section is one of: ${SECTIONS.slice(0, 7).join(", ")}. ` +
    `No other text.\n\n--- SESSION.md ---\n${st.page.render()}\n--- transcripts ---${material}`;
  const row: Row = { role: "user", text: prompt, seq: 1, turn: 1, step: 0, at: Date.now() };
  let answer = "";
  try {
    const controller = new AbortController();
    for await (const ev of provider.stream(
      { model, system: ["You maintain SESSION.md for a coding agent. Answer only with lines of the form '<Section>: <text>'."], rows: [row], tools: [], maxOutputTokens: Math.min(4_000, model.maxOutputTokens), extra: {}, sessionId: st.id, sessionStep: 0 },
      controller.signal,
    )) {
      if (ev.type === "text_delta") answer += ev.text;
    }
  } catch (e) {
    return { ok: false, message: `the model call failed: ${(e as Error).message}` };
  }
  const stamp = turns.length === 1 ? `(t${turns[0]} merge)` : `(t${turns[0]}–t${turns[turns.length - 1]} merge)`;
  let lines = 0;
  for (const raw of answer.split("\n")) {
    const m = /^\s*[-*]?\s*([A-Za-z ]+):\s*(.+)$/.exec(raw);
    if (!m) continue;
    const section = SECTIONS.find((s) => s.toLowerCase() === m[1]!.trim().toLowerCase()) as Section | undefined;
    if (!section) continue;
    if (st.page.upsert(section, `fold:${turns[0]}:${lines}`, `${m[2]!.trim()} ${stamp}`)) lines++;
  }
  for (const t of turns) (st.turnByNum.get(t) as { folded?: boolean }).folded = true;
  ledger.putIndex(st);
  ledger.putPage(st);
  await ledger.settle();
  return { ok: true, turns: turns.length, lines };
}
