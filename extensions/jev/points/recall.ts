/**
 * Point 3, `recall`: which excerpts of old tool results past the tideline the current step needs back.
 * At the first step of a prompt whose session has a tideline cut, the tool results up to the cut (the
 * ledger's verbatim record, LedgerService.toolResults, at most 255, the newest) are offered to Jev as
 * labelled excerpts beside the prompt. act: each picked excerpt is appended as a pointer-read note at the
 * END of the window (after the prompt's row), and stays at that place on every later step while that row
 * is in the window, so the cached prefix is never rewritten. shadow: asked in the background, recorded,
 * nothing changes. Taps engine.contextBuild after the tideline (stage 150).
 */
import type { ExtensionContext } from "../../../kernel/api.js";
import type { ContextWindow, NoteRow, Row, StepContext } from "../../engine/api.js";
import type { PastToolResult } from "../../ledger/api.js";
import type { JevAnswer, JevQuestion, JevService, JevState } from "../api.js";
import { clip, decide, promptOfTurn, type Verdict } from "./advise.js";

export const RECALL_NONE = "none";

export const RECALL_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  needed: {
    type: "choice",
    instructions:
      "The conversation's older tool results left the model's window; `excerpts` lists them, each with a `label`, the tool, its input and its text. The user's current request is `prompt` and the agent's latest words are `recent`. Which excerpt does the agent need back to do the current request? Answer `none` when no excerpt is needed.",
    options: [RECALL_NONE, "E1", "E2", "…one label per excerpt, up to E255"],
  },
};

export function recallQuestions(labels: readonly string[]): Record<string, JevQuestion> {
  return { needed: { ...(RECALL_QUESTIONS.needed as Extract<JevQuestion, { type: "choice" }>), options: [RECALL_NONE, ...labels] } };
}

export type RecallThresholds = {
  /** an excerpt's probability needed to recall it (jev.thresholds.recall_floor, default 0.3) */
  recall_floor: number;
  /** at most this many excerpts per prompt (jev.thresholds.recall_max, default 2) */
  recall_max: number;
};
export const RECALL_DEFAULTS: RecallThresholds = { recall_floor: 0.3, recall_max: 2 };

/** The policy: nothing when `none` is the choice; else the excerpts at or above the floor, most likely first, at most recall_max. */
export function recallPolicy(answers: Readonly<Record<string, JevAnswer>>, t: RecallThresholds = RECALL_DEFAULTS): Verdict<string[]> {
  const a = answers.needed;
  if (!a || a.type !== "choice" || a.choice === RECALL_NONE) return { verdict: "none" };
  const picked = Object.entries(a.probabilities)
    .filter(([o, p]) => o !== RECALL_NONE && p >= t.recall_floor)
    .sort((x, y) => y[1] - x[1])
    .slice(0, Math.max(0, Math.floor(t.recall_max)))
    .map(([o]) => o);
  if (!picked.length) return { verdict: `none (${a.choice} below ${t.recall_floor})` };
  return { verdict: `recall:${picked.join(",")}`, value: picked };
}

const EXCERPT_BUDGET = 36_000;
/** characters of one recalled excerpt in the window */
export const RECALL_NOTE_CHARS = 4_000;

export function recallState(prompt: string, recent: string, past: readonly PastToolResult[]): JevState {
  const each = Math.max(120, Math.floor(EXCERPT_BUDGET / Math.max(1, past.length)));
  return {
    prompt: clip(prompt, 4_000),
    recent: clip(recent, 2_000),
    excerpts: past.map((p, i) => ({ label: `E${i + 1}`, seq: p.seq, tool: p.tool, input: clip(JSON.stringify(p.input), 300), text: clip(p.text, each) })),
  };
}

/** The pointer-read note for one recalled excerpt. */
export function recallNote(p: PastToolResult, ledgerDir: string | undefined): string {
  const where = ledgerDir ? `${ledgerDir}/transcript/` : "the session ledger";
  return (
    `[jev recall: a pointer-read of an earlier tool result past the tideline — seq ${p.seq}, ${p.tool} ${clip(JSON.stringify(p.input), 200)}; ` +
    `verbatim in ${where}]\n${clip(p.text, RECALL_NOTE_CHARS)}`
  );
}

interface Recalled {
  /** the note goes right after the row with this seq (the prompt's row when it was decided) */
  afterSeq: number;
  turn: number;
  text: string;
  /** the recalled result's call id: not offered again while this note is in the window */
  callId: string;
}
const KEY = "jev:recall";
const recalledOf = (s: { ext: Map<string, unknown> }): Recalled[] => {
  let r = s.ext.get(KEY) as Recalled[] | undefined;
  if (!r) s.ext.set(KEY, (r = []));
  return r;
};

/** The window with the recalled notes placed after their rows (a note whose row left the window goes too). */
export function placeNotes(rows: readonly Row[], notes: readonly Recalled[]): Row[] {
  if (!notes.length) return [...rows];
  const out: Row[] = [];
  for (const r of rows) {
    out.push(r);
    for (const n of notes) if (n.afterSeq === r.seq) out.push({ role: "note", text: n.text, seq: r.seq, turn: n.turn, step: r.step, at: r.at } satisfies NoteRow);
  }
  return out;
}

export function installRecall(ctx: ExtensionContext, jev: JevService): void {
  const engine = ctx.services.get("engine");
  const ledger = () => ctx.services.tryGet("ledger");
  const tideline = () => ctx.services.tryGet("tideline");
  engine.hooks.contextBuild.tap({ name: ctx.id, stage: "recall" }, async (win: ContextWindow, step: StepContext): Promise<ContextWindow> => {
    const mode = jev.mode("recall");
    if (mode === "off") return win;
    const notes = recalledOf(step.session);
    const sid = step.session.info.id;
    const cutSeq = tideline()?.cutSeq(sid) ?? 0;
    // a note whose row the tideline cut has left the window with it
    for (let i = notes.length - 1; i >= 0; i--) if (notes[i]!.afterSeq <= cutSeq) notes.splice(i, 1);
    if (step.step === 1) {
      const ld = ledger();
      const last = win.rows[win.rows.length - 1];
      if (cutSeq > 0 && ld?.toolResults && last) {
        const prompt = promptOfTurn(step.session.rows, step.turn) ?? "";
        const recent = [...win.rows].reverse().find((r) => r.role === "assistant")?.text ?? "";
        const work = async (): Promise<void> => {
          const shown = new Set(notes.map((n) => n.callId));
          const past = (await ld.toolResults!(sid, { uptoSeq: cutSeq, limit: 255 + shown.size }).catch(() => [] as PastToolResult[])).filter((p) => !shown.has(p.callId)).slice(-255);
          if (!past.length) return;
          const t: RecallThresholds = { recall_floor: jev.threshold("recall_floor", RECALL_DEFAULTS.recall_floor), recall_max: jev.threshold("recall_max", RECALL_DEFAULTS.recall_max) };
          const d = await decide(jev, {
            point: "recall",
            sessionId: sid,
            state: recallState(prompt, recent, past),
            questions: recallQuestions(past.map((_, i) => `E${i + 1}`)),
            baseline: "none",
            policy: (a) => recallPolicy(a, t),
            signal: step.signal,
          });
          const dir = ld.dirOf(sid);
          for (const label of d.value ?? []) {
            const p = past[Number(label.slice(1)) - 1];
            if (p) notes.push({ afterSeq: last.seq, turn: step.turn, text: recallNote(p, dir), callId: p.callId });
          }
        };
        // shadow: reading the ledger happens off the critical path too
        if (mode === "shadow") {
          // tracked from the start (the ledger read comes before the ask): a session that ends meanwhile waits for it
          const shadowed = work().catch(() => undefined);
          jev.track?.(shadowed);
        } else await work();
      }
    }
    return notes.length ? { ...win, rows: placeNotes(win.rows, notes) } : win;
  });
}
