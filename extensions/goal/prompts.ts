/**
 * Goal mode's three roles (their system prompts: how tests and transcripts tell them apart) and the parsers of
 * their fenced JSON answers. Parsing is forgiving about where the block is and strict about its shape.
 */
import type { Deliverable } from "./api.js";

export const PLANNER_SYSTEM =
  "You are the goal planner of oceancode goal mode. Turn the user's objective into a short list of verifiable deliverables. You are read-only: look at the project if it helps, change nothing.";
export const WORKER_SYSTEM =
  "You are the goal worker of oceancode goal mode. Do the work the objective needs in the user's project, deliverable by deliverable, and leave it checkable. Keep answers short and concrete.";
export const SKEPTIC_SYSTEM =
  "You are a goal skeptic of oceancode goal mode: a cold, adversarial reviewer with no part in the work. You are read-only. Your job is to REFUTE claims of completion with evidence you gathered yourself.";

export function plannerPrompt(objective: string, retry?: string): string {
  const lines = [
    `Objective: ${objective}`,
    "",
    "Answer with ONE fenced JSON block (```json … ```) and nothing else that matters:",
    '{ "deliverables": [ { "id": "d1", "text": "what must be true when done", "check": "how it will be verified (a command to run, a file to read)" } ] }',
    "Each deliverable must be checkable by someone who did not do the work.",
  ];
  if (retry) lines.push("", `Your previous answer could not be used (${retry}). Answer again with the JSON block only.`);
  return lines.join("\n");
}

export function workerFirstPrompt(objective: string, deliverables: Deliverable[]): string {
  return [`Objective: ${objective}`, "", "Deliverables (each will be checked by independent skeptics):", ...deliverables.map((d) => `- ${d.id}: ${d.text} (check: ${d.check})`), "", "Do the work now. End with a short summary of what you did for each deliverable."].join("\n");
}

export function workerGapsPrompt(round: number, gaps: string[]): string {
  return [`Round ${round}: the skeptics refuted completion. Close these gaps:`, ...gaps.map((g) => `- ${g}`), "", "Fix them, then end with a short summary per gap."].join("\n");
}

export function skepticPrompt(objective: string, deliverables: Deliverable[], round: number): string {
  return [
    `Verification round ${round}.`,
    `Objective someone claims is done: ${objective}`,
    "",
    "Deliverables to refute:",
    ...deliverables.map((d) => `- ${d.id}: ${d.text} (check: ${d.check})`),
    "",
    "Try to REFUTE each deliverable: run its check yourself (read the files, search the code). Uphold one only when your own evidence shows it holds.",
    "Answer with ONE fenced JSON block:",
    '{ "refuted": [ { "id": "d1", "why": "what is wrong", "evidence": "what you read or ran" } ], "upheld": [ "d2" ], "evidence": [ "each file read or command run" ] }',
  ].join("\n");
}

/** The JSON object in a fenced ```json block (the last that parses), else the outermost {...} span. */
export function extractJson(text: string): unknown {
  const fenced = [...text.matchAll(/```(?:json|JSON)?\s*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  for (const body of fenced.reverse()) {
    try {
      return JSON.parse(body);
    } catch {
      // the next block, or the bare span below
    }
  }
  const a = text.indexOf("{");
  const b = text.lastIndexOf("}");
  if (a >= 0 && b > a) {
    try {
      return JSON.parse(text.slice(a, b + 1));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The planner's deliverables, or why they cannot be used. */
export function parsePlan(text: string): { deliverables: Deliverable[] } | { error: string } {
  const j = extractJson(text);
  const list = Array.isArray(j) ? j : typeof j === "object" && j !== null ? (j as { deliverables?: unknown }).deliverables : undefined;
  if (!Array.isArray(list)) return { error: "no JSON block with a deliverables list" };
  const out: Deliverable[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of list.entries()) {
    const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const text = str(o.text) ?? str(o.description);
    const check = str(o.check) ?? str(o.verify);
    if (!text || !check) return { error: `deliverable ${i + 1} needs a text and a check` };
    let id = str(o.id) ?? `d${i + 1}`;
    if (seen.has(id)) id = `${id}-${i + 1}`;
    seen.add(id);
    out.push({ id, text, check });
  }
  if (out.length === 0) return { error: "the deliverables list is empty" };
  return { deliverables: out };
}

export interface Refutation {
  id: string;
  why: string;
}

/**
 * One skeptic's verdict as refutations. A deliverable neither upheld nor refuted, an unreadable verdict, and
 * a verdict that cites no evidence all count as refutations ("no evidence"): convergence needs proof.
 */
export function parseVerdict(text: string, deliverables: Deliverable[]): Refutation[] {
  const j = extractJson(text);
  if (typeof j !== "object" || j === null || Array.isArray(j)) return deliverables.map((d) => ({ id: d.id, why: "no readable verdict" }));
  const v = j as { refuted?: unknown; upheld?: unknown; evidence?: unknown };
  const out = new Map<string, string>();
  for (const r of Array.isArray(v.refuted) ? v.refuted : []) {
    const o = (typeof r === "object" && r !== null ? r : {}) as Record<string, unknown>;
    const id = str(o.id) ?? (typeof r === "string" ? r : undefined);
    if (!id) continue;
    out.set(id, str(o.why) ?? "refuted");
  }
  const upheld = new Set((Array.isArray(v.upheld) ? v.upheld : []).map((u) => (typeof u === "string" ? u : str((u as { id?: unknown })?.id))).filter((u): u is string => Boolean(u)));
  const cited = str(v.evidence) !== undefined || (Array.isArray(v.evidence) && v.evidence.some((e) => str(e) !== undefined));
  for (const d of deliverables) {
    if (out.has(d.id)) continue;
    if (!upheld.has(d.id)) out.set(d.id, "not verified");
    else if (!cited) out.set(d.id, "no evidence");
  }
  return [...out].filter(([id]) => deliverables.some((d) => d.id === id)).map(([id, why]) => ({ id, why }));
}

/** A gap as the worker reads it: `<id>: <why>`. */
export function gapText(r: Refutation): string {
  return `${r.id}: ${r.why}`;
}

/** The gap set in a form two rounds can be compared by (order, case and spacing do not matter). */
export function gapKey(gaps: string[]): string {
  return [...new Set(gaps.map((g) => g.toLowerCase().replace(/\s+/g, " ").trim()))].sort().join("\n");
}
