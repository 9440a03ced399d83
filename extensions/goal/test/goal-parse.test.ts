/** The planner's and skeptics' fenced JSON answers: forgiving about where the block is, strict about what counts as proof. */
import { describe, expect, it } from "vitest";
import { extractJson, gapKey, parsePlan, parseVerdict } from "../prompts.js";
import { parseGoalArgs } from "../cli.js";

const ds = [
  { id: "d1", text: "a", check: "read a" },
  { id: "d2", text: "b", check: "read b" },
];

describe("goal answers", () => {
  it("takes the last fenced block that parses, else the outer braces", () => {
    expect(extractJson('x\n```json\n{"a":1}\n```\nthen\n```json\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(extractJson('x\n```json\n{"a":1}\n```\n```json\n{broken\n```')).toEqual({ a: 1 });
    expect(extractJson('the plan: {"deliverables": []} ok')).toEqual({ deliverables: [] });
    expect(extractJson("nothing")).toBeUndefined();
  });

  it("reads a plan, numbering missing ids and refusing items without a check", () => {
    expect(parsePlan('```json\n{"deliverables":[{"text":"t","check":"c"},{"id":"x","description":"u","verify":"v"}]}\n```')).toEqual({
      deliverables: [
        { id: "d1", text: "t", check: "c" },
        { id: "x", text: "u", check: "v" },
      ],
    });
    expect(parsePlan('```json\n{"deliverables":[{"text":"t"}]}\n```')).toEqual({ error: "deliverable 1 needs a text and a check" });
    expect(parsePlan('```json\n{"deliverables":[]}\n```')).toEqual({ error: "the deliverables list is empty" });
    expect(parsePlan("no")).toEqual({ error: "no JSON block with a deliverables list" });
  });

  it("counts a deliverable neither upheld nor refuted, an unreadable verdict and an uncited one as refuted", () => {
    expect(parseVerdict('```json\n{"refuted":[],"upheld":["d1","d2"],"evidence":["read a"]}\n```', ds)).toEqual([]);
    expect(parseVerdict('```json\n{"refuted":[{"id":"d2","why":"b is empty","evidence":"read b"}],"upheld":["d1"],"evidence":"read a"}\n```', ds)).toEqual([{ id: "d2", why: "b is empty" }]);
    expect(parseVerdict('```json\n{"refuted":[],"upheld":["d1"],"evidence":["x"]}\n```', ds)).toEqual([{ id: "d2", why: "not verified" }]);
    expect(parseVerdict('```json\n{"refuted":[],"upheld":["d1","d2"],"evidence":[]}\n```', ds)).toEqual([
      { id: "d1", why: "no evidence" },
      { id: "d2", why: "no evidence" },
    ]);
    expect(parseVerdict("I think it is fine", ds)).toEqual([
      { id: "d1", why: "no readable verdict" },
      { id: "d2", why: "no readable verdict" },
    ]);
  });

  it("compares gap sets regardless of order, case and spacing", () => {
    expect(gapKey(["d1: A  b", "d2: c"])).toBe(gapKey(["d2: C", "d1: a b"]));
    expect(gapKey(["d1: a"])).not.toBe(gapKey(["d1: b"]));
  });

  it("parses flags before the objective; the words after them are the objective", () => {
    expect(parseGoalArgs(["--budget", "5", "-m", "sonnet", "--auto", "fix", "--budget", "x"])).toEqual({ objective: "fix --budget x", budget: 5, model: "sonnet", auto: true, help: false });
    expect(() => parseGoalArgs(["--budget", "-1", "x"])).toThrow(/--budget must be a whole number/);
  });
});
