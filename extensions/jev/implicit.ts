/**
 * `jev labels --implicit`: what the agent did next, read from the session's rows (the ledger's rows.jsonl
 * beside jev-decisions.jsonl), as a label for a decision nobody labelled (docs/jev.md, bench/jev/README.md):
 *   skills       the first skill it loaded after the pick          -> "skill:<name>"          (implicit-skill-load)
 *   tool_tiers   a tool it fetched with tool_search after the pick -> "<verdict>;extra:<tool>" (implicit-tool-search)
 *   supervisor   after a continuation, an edit / write / apply_patch / bash call -> "continue", else "finish"
 *                (implicit-continuation)
 * These are the agent's behaviour, not a person's verdict: spot-check them before a run counts on them.
 */
import fs from "node:fs";
import path from "node:path";

interface Call {
  at: number;
  name: string;
  input: Record<string, unknown>;
  /** the call's result text, when its tool row was stored */
  result?: string;
}

const EDITING = new Set(["edit", "write", "apply_patch", "bash", "multiedit"]);

/** The tool calls of a session, in order, from rows.jsonl (the last copy of a row wins after a resume). */
export function sessionCalls(dir: string): Call[] {
  let text = "";
  try {
    text = fs.readFileSync(path.join(dir, "rows.jsonl"), "utf8");
  } catch {
    return [];
  }
  type Stored = { seq: number; at: number; role: string; toolCalls?: Array<{ id: string; name: string; input: Record<string, unknown> }>; results?: Array<{ callId: string; content: string }> };
  const bySeq = new Map<number, Stored>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as { t?: string; row?: Stored };
      if (r.t === "row" && r.row) bySeq.set(r.row.seq, r.row);
    } catch {
      // a torn line
    }
  }
  const calls: Call[] = [];
  const byId = new Map<string, Call>();
  for (const seq of [...bySeq.keys()].sort((a, b) => a - b)) {
    const r = bySeq.get(seq)!;
    if (r.role === "assistant")
      for (const c of r.toolCalls ?? []) {
        const call: Call = { at: r.at, name: c.name, input: c.input ?? {} };
        calls.push(call);
        byId.set(c.id, call);
      }
    if (r.role === "tool") for (const res of r.results ?? []) if (byId.has(res.callId)) byId.get(res.callId)!.result = res.content;
  }
  return calls;
}

/** The implicit label of one decision (made at `at` with `verdict`), or undefined when the session shows none. */
export function implicitLabel(point: string, verdict: string, at: number, calls: readonly Call[]): { label: string; source: string } | undefined {
  const after = calls.filter((c) => c.at >= at);
  if (point === "skills") {
    const load = after.find((c) => c.name === "skill" && typeof (c.input.name ?? c.input.skill) === "string");
    return load ? { label: `skill:${String(load.input.name ?? load.input.skill)}`, source: "implicit-skill-load" } : undefined;
  }
  if (point === "tool_tiers") {
    // tool_search answers "added to your tools …" with one "- <name>: <description>" line per tool
    for (const c of after) {
      if (c.name !== "tool_search") continue;
      const tool = /^- ([A-Za-z0-9_-]+):/m.exec(c.result ?? "")?.[1];
      if (tool) return { label: `${verdict.startsWith("wide") ? "wide" : "narrow"};extra:${tool}`, source: "implicit-tool-search" };
    }
    return undefined;
  }
  if (point === "supervisor" && verdict.startsWith("continue")) {
    return { label: after.some((c) => EDITING.has(c.name)) ? "continue" : "finish", source: "implicit-continuation" };
  }
  return undefined;
}
