/**
 * The Claude Code route end to end: the compiled oceancode CLI runs the real claude CLI, which talks to
 * the fake Anthropic server. Claude Code runs its own tools (the engine never runs them again), a
 * --continue resumes claude's conversation, the tideline's cut cold-starts it with the ledger page, the
 * settings mirror picks the model, and a Claude Code hook fires once per prompt, not twice.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { allText, lastUserText, startBed, type Bed } from "./fixture.js";

let bed: Bed;
beforeAll(async () => {
  bed = await startBed();
}, 30_000);
afterAll(async () => bed?.close());

describe("claude-code route", () => {
  test("a tool-using session: Claude Code runs Bash once, oceancode records it and answers", async () => {
    const r = await bed.run(["run", "--model", "claude-code/sonnet", "RUNTOOL please"]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("done tool");
    // exactly one line: claude ran the command, the engine did not run it again
    expect(fs.readFileSync(path.join(bed.sb.project, "made.txt"), "utf8")).toBe("made\n");
    const turns = bed.turns();
    expect(turns.length).toBe(2);
    expect(turns[0]!.body.model).toMatch(/^claude-sonnet/); // claude resolves its alias itself
    // the oceancode secrets stay out of claude's requests
    expect(JSON.stringify(turns.map((t) => t.body))).not.toContain("OC_CLAUDE_BIN");
    // the session's export shows what Claude Code did
    const id = /session: (\S+)/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeDefined();
    const md = await bed.run(["export", "--md", "--out", "-", id!]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("Bash");
    expect(md.stdout).toContain("echo made >> made.txt");
  }, 90_000);

  test("--continue resumes claude's own conversation (the first prompt is in its history)", async () => {
    const before = bed.turns().length;
    const r = await bed.run(["run", "--continue", "--model", "claude-code/sonnet", "second question"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("reply: second question");
    const req = bed.turns()[before]!;
    expect(lastUserText(req)).toContain("second question");
    expect(allText(req)).toContain("RUNTOOL please");
    // resumed: only the new prompt was sent, not a replay of oceancode's window
    expect(lastUserText(req)).not.toContain("earlier-turns");
  }, 90_000);

  test("past the tideline the next prompt cold-starts claude with the ledger page and the retained turns' text", async () => {
    const before = bed.turns().length;
    // Claude Code's own context (its system prompt and tools) is far past 20k: every prompt of this run
    // finds the last reported context at or over the line and cold-starts claude
    const lines = ["third question", "fourth question", "fifth question"].map((t) => JSON.stringify({ type: "user", message: { role: "user", content: t } })).join("\n");
    const r = await bed.runInput(["run", "--continue", "--tideline", "20k", "--model", "claude-code/sonnet", "--input-format", "stream-json", "--output-format", "stream-json"], `${lines}\n`);
    expect(r.code, r.stderr).toBe(0);
    const reqs = bed.turns().slice(before);
    const cold = reqs.find((q) => lastUserText(q).includes("<session-page>"));
    expect(cold, reqs.map(lastUserText).join("\n---\n")).toBeDefined();
    // a fresh claude conversation: one message, carrying the page and the new prompt, not the old history
    expect(cold!.body.messages!.filter((m) => m.role !== "system").length).toBe(1);
    expect(lastUserText(cold!)).toContain("<earlier-turns>");
    // the state from the --continue before says claude's context is already past 20k: the first prompt goes cold
    expect(lastUserText(cold!)).toContain("User: second question");
    expect(lastUserText(cold!)).toContain("Assistant: done tool");
    expect(lastUserText(cold!)).not.toContain("(Bash completed"); // tool outputs are not re-sent
    expect(lastUserText(cold!)).toMatch(/third question$/);
  }, 120_000);
});
