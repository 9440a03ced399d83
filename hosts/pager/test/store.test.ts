/** The pager store is the sanitizing chokepoint: whatever goes in from events, posts and questions comes out display-safe. */
import { describe, expect, it } from "vitest";
import { lastGauge, PagerStore, rowsToItems, safeQuestion, type Item } from "../store.js";
import type { Row, SessionEvent } from "../../../extensions/engine/api.js";

const ESC = "\x1b";
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

function store(): { s: PagerStore; ev: (e: Record<string, unknown> & { type: SessionEvent["type"] }) => void } {
  const s = new PagerStore();
  s.sessionId = "s1";
  return { s, ev: (e) => s.apply({ sessionId: "s1", ...e } as SessionEvent) };
}

function texts(items: readonly Item[]): string[] {
  return items.map((i) => (i.kind === "tool" ? `${i.head}|${i.output ?? ""}` : i.text));
}

describe("PagerStore sanitizes on the way in", () => {
  it("streamed text (a CR LF split across deltas stays a newline), tool heads and outputs, notices", () => {
    const { s, ev } = store();
    ev({ type: "turn_start", turn: 1, text: "hi" });
    ev({ type: "text_delta", text: `one\r` });
    ev({ type: "text_delta", text: `\ntwo ${ESC}]52;c;eA==\x07 \u202e` });
    expect(s.liveText).toBe("one\ntwo ␛]52;c;eA==␇ <U+202E>");
    const call = { id: "c1", name: `bash${ESC}[2J`, input: { command: `echo ${ESC}]0;t\x07\nls` } };
    ev({ type: "tool_call_start", call });
    expect(s.liveTools[0]!.head).toBe('bash␛[2J(command: "echo ␛]0;t␇ ⏎ ls")');
    ev({ type: "tool_call_end", call, result: { callId: "c1", name: call.name, content: `out\x9b31mred\r\n`, isError: false } });
    ev({ type: "notice", level: "error", text: `hook said ${ESC}P+q${ESC}\\` });
    ev({ type: "turn_end", turn: 1, reason: "end_turn", text: "" });
    const all = texts(s.done.view().slice(0));
    expect(all).toEqual(["one\ntwo ␛]52;c;eA==␇ <U+202E>", 'bash␛[2J(command: "echo ␛]0;t␇ ⏎ ls")|out<U+009B>31mred\n', "hook said ␛P+q␛\\"]);
    for (const t of all) expect(t).not.toMatch(ACTIVE);
  });

  it("posts (replies, errors) and the answered-question notice", () => {
    const { s, ev } = store();
    s.post({ kind: "reply", text: `title ${ESC}]2;x\x07` });
    ev({ type: "question", question: { sessionId: "s1", tool: "bash", subject: `rm ${ESC}[8m-rf /`, reason: "r" }, answer: "once" });
    expect(texts(s.done.view().slice(0))).toEqual(["title ␛]2;x␇", "allowed once: bash rm ␛[8m-rf /"]);
  });

  it("safeQuestion makes every shown field safe and keeps the always rule", () => {
    const q = safeQuestion({ sessionId: "s1", tool: `b${ESC}[1m`, subject: `git push\n${ESC}]0;t\x07`, reason: "why\r", rule: "bash * ask", always: `bash git push ${ESC}[2J allow` });
    expect(q).toEqual({ sessionId: "s1", tool: "b␛[1m", subject: "git push\n␛]0;t␇", reason: "why␍", rule: "bash * ask", always: "bash git push ␛[2J allow" });
  });

  it("a resumed session's rows are sanitized, and its last step gives the gauge", () => {
    const rows: Row[] = [
      { role: "user", text: `hi ${ESC}[2J` } as Row,
      { role: "assistant", text: `ans ${ESC}]0;x\x07`, toolCalls: [], usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 1000, cacheWriteTokens: 5 } } as Row,
    ];
    expect(rowsToItems(rows).map((i) => ("text" in i ? i.text : ""))).toEqual([`hi ${ESC}[2J`, `ans ${ESC}]0;x\x07`]);
    const s = new PagerStore();
    for (const it of rowsToItems(rows)) s.add(it);
    expect(texts(s.done.view().slice(0))).toEqual(["hi ␛[2J", "ans ␛]0;x␇"]);
    expect(lastGauge(rows)).toBe(1125);
    expect(lastGauge([])).toBe(0);
  });
});

describe("PagerStore keeps only text that is stored", () => {
  it("a discard takes the step's streamed text back (a held CR included); the retry streams anew", () => {
    const { s, ev } = store();
    ev({ type: "turn_start", turn: 1, text: "hi" });
    ev({ type: "text_delta", text: "abandoned\r" });
    ev({ type: "discard", turn: 1, step: 1, reason: "retry", cause: "network", chars: 10, deltas: 1 });
    expect(s.liveText).toBe("");
    ev({ type: "notice", level: "warn", text: "network: dropped; retry 1/4 in 10 ms" });
    ev({ type: "text_delta", text: "whole" });
    ev({ type: "step_end", turn: 1, step: 1, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, gaugeTokens: 2 });
    ev({ type: "turn_end", turn: 1, reason: "end_turn", text: "whole" });
    // the held CR of the abandoned text did not leak into the retry (it would show as "␍whole")
    expect(texts(s.done.view().slice(0))).toEqual(["network: dropped; retry 1/4 in 10 ms", "whole"]);
  });

  it("a reopened session shows where an interrupted turn stopped", () => {
    const rows: Row[] = [
      { role: "user", text: "explain", seq: 1, turn: 1, step: 0, at: 0 },
      { role: "assistant", text: "cut off here", toolCalls: [], seq: 2, turn: 1, step: 1, at: 0 },
      { role: "note", kind: "interrupted", text: "[interrupted by the user: the turn stopped here, before it finished]", seq: 3, turn: 1, step: 1, at: 0 },
      { role: "note", text: "[continued by hooks] more", seq: 4, turn: 1, step: 1, at: 0 },
    ];
    expect(rowsToItems(rows)).toEqual([
      { kind: "user", text: "explain" },
      { kind: "assistant", text: "cut off here" },
      { kind: "notice", level: "warn", text: "stopped: the turn was interrupted here" },
    ]);
  });

  it("a notice mid-stream leaves the text live (a discard may still take it back)", () => {
    const { s, ev } = store();
    ev({ type: "turn_start", turn: 1, text: "hi" });
    ev({ type: "text_delta", text: "partial" });
    ev({ type: "notice", level: "info", text: "a hook said something" });
    expect(s.liveText).toBe("partial");
    ev({ type: "discard", turn: 1, step: 1, reason: "error", cause: "overloaded", chars: 7, deltas: 1 });
    ev({ type: "notice", level: "error", text: "overloaded: gave up" });
    ev({ type: "turn_end", turn: 1, reason: "error", text: "" });
    expect(texts(s.done.view().slice(0))).toEqual(["a hook said something", "overloaded: gave up"]);
  });
});
