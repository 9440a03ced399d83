/**
 * `jev labels --implicit` from what the agent did next: the session's rows (rows.jsonl, as the ledger
 * writes it) beside its jev-decisions.jsonl. A skills pick is labelled by the first skill loaded, a tier
 * pick by the tool tool_search added, a supervisor continuation by whether an edit followed; a person's
 * label always wins and a decision the session shows nothing for stays out.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectLabels } from "../labels.js";

let root = "";
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = "";
});

const lines = (xs: object[]) => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";
const decision = (point: string, hash: string, verdict: string, at: number) => ({ type: "decision", at, session: "ses_a", point, mode: "shadow", outcome: "shadow", verdict, baseline: "-", latency_ms: 1, model: "jev-1.13.0", state_hash: hash, state: { prompt: "x" }, answers: { q: { type: "noul", noul: 0.5 } } });
const assistant = (seq: number, at: number, calls: Array<{ id: string; name: string; input: object }>) => ({ t: "row", row: { seq, at, turn: 1, step: seq, role: "assistant", text: "", toolCalls: calls } });
const tool = (seq: number, at: number, callId: string, content: string) => ({ t: "row", row: { seq, at, turn: 1, step: seq, role: "tool", results: [{ callId, name: "x", content, isError: false }] } });

describe("jev labels --implicit", () => {
  it("labels skills, tool tiers and supervisor decisions from the rows that followed them", () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-jev-implicit-"));
    const dir = path.join(root, "ses_a");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "jev-decisions.jsonl"),
      lines([
        decision("skills", "h1", "keep:review,deploy", 100),
        decision("tool_tiers", "h2", "narrow;extra:web_fetch", 100),
        decision("supervisor", "h3", "continue", 300),
        decision("supervisor", "h4", "continue", 500),
        decision("permission", "h5", "allow", 100),
        { type: "label", at: 600, session: "ses_a", point: "permission", state_hash: "h5", label: "deny" },
      ]),
    );
    fs.writeFileSync(
      path.join(dir, "rows.jsonl"),
      lines([
        assistant(2, 150, [{ id: "c1", name: "skill", input: { name: "review" } }]),
        assistant(3, 200, [{ id: "c2", name: "tool_search", input: { query: "fetch a web page" } }]),
        tool(4, 210, "c2", "added to your tools from the next step:\n- web_fetch: fetch a URL"),
        assistant(5, 350, [{ id: "c3", name: "edit", input: { file_path: "a.ts" } }]),
        assistant(6, 550, [{ id: "c4", name: "read", input: { file_path: "a.ts" } }]),
      ]),
    );
    const got = collectLabels(root, { implicit: true }).map((r) => [r.point, r.state_hash, r.label, r.source]);
    expect(got).toEqual([
      ["skills", "h1", "skill:review", "implicit-skill-load"],
      ["tool_tiers", "h2", "narrow;extra:web_fetch", "implicit-tool-search"],
      ["supervisor", "h3", "continue", "implicit-continuation"],
      ["supervisor", "h4", "finish", "implicit-continuation"],
      ["permission", "h5", "deny", "person"],
    ]);
    // without --implicit only the person's label is exported
    expect(collectLabels(root, {}).map((r) => r.state_hash)).toEqual(["h5"]);
  });
});
