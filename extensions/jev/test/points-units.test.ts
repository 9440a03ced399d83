/** The pure parts of points 2, 3, 5 and 6: the vocabulary rule, output blocks, the catalogue for `jev questions` / `jev verdicts`. */
import { describe, expect, it } from "vitest";
import { promptWords, sharesVocabulary, stickyStep, type KeepSet } from "../points/advise.js";
import { PART2_POINTS } from "../points/catalog.js";
import { keepOutputBlock, splitOutputBlocks } from "../../tools/kit.js";

describe("sticky keep-sets: the vocabulary rule", () => {
  it("words are a-z0-9_ runs of 4+ characters outside the stop list, lowercased, distinct", () => {
    expect(promptWords("Please FIX the parser_v2 in src/Lexer.ts, then update the lexer")).toEqual(["parser_v2", "lexer"]);
  });
  it("fewer than four words reuse; otherwise a fifth of the words must appear in the previous prompt", () => {
    expect(sharesVocabulary("yes, go on", "anything at all here")).toBe(true);
    expect(sharesVocabulary("rename the parser module and its tests", "the parser crashes on empty input")).toBe(true); // 1 of 4 (rename parser module tests) = 1/4 >= 1/5
    expect(sharesVocabulary("deploy kubernetes cluster staging region", "the parser crashes on empty input")).toBe(false);
    expect(sharesVocabulary("alpha bravo charlie delta echo foxtrot", "alpha zulu")).toBe(false); // 1 of 6 < 1/5
  });
  it("the first prompt decides; a reuse needs a keep-set from a decision", () => {
    const ks: KeepSet = {};
    expect(stickyStep(ks, "fetch the release notes from the website")).toBe("decide");
    expect(stickyStep(ks, "the release notes again")).toBe("decide"); // no set yet (the first decision failed)
    ks.names = new Set(["web_fetch"]);
    expect(stickyStep(ks, "the release notes, shorter")).toBe("reuse");
  });
});

describe("output blocks", () => {
  it("paragraphs, long ones in 40-line groups, at most 255 blocks, every line once", () => {
    const text = ["a\nb", "c", Array.from({ length: 90 }, (_, i) => `l${i}`).join("\n")].join("\n\n");
    const blocks = splitOutputBlocks(text);
    expect(blocks.map((x) => [x.label, x.firstLine, x.lastLine])).toEqual([
      ["B1", 1, 2],
      ["B2", 4, 4],
      ["B3", 6, 45],
      ["B4", 46, 85],
      ["B5", 86, 95],
    ]);
    const many = Array.from({ length: 1000 }, (_, i) => `p${i}`).join("\n\n");
    const mb = splitOutputBlocks(many);
    expect(mb.length).toBeLessThanOrEqual(255);
    expect(mb.map((x) => x.text).join("\n")).toBe(many);
  });
  it("the kept view: first line, marker, the block, the last line", () => {
    const full = "head line\n\nfoo\n\nthe answer\n\ntail";
    const blocks = splitOutputBlocks(full);
    const v = keepOutputBlock({ full, block: blocks[2]!, blocks: blocks.length, fullPath: "/x/full.txt", maxChars: 2000, lastLine: "exit code: 1" });
    expect(v).toMatch(/^head line\n\n\[truncated \d+ bytes; kept block B3 of 4, lines 5-5; full output kept at \/x\/full\.txt\]\n\nthe answer\n\n\[\.\.\.\]\nexit code: 1$/);
  });
});

describe("the catalogue for jev questions / jev verdicts", () => {
  it("names the four points, their questions and thresholds, and turns recorded answers into verdicts offline", () => {
    expect(Object.keys(PART2_POINTS)).toEqual(["output", "recall", "tool_tiers", "skills"]);
    expect(PART2_POINTS.tool_tiers!.thresholds).toEqual({ needs_more_than_core: 0.6 });
    expect(PART2_POINTS.skills!.thresholds).toEqual({ skills_floor: 0.02, needs_skill: 0.5 });
    expect(Object.keys(PART2_POINTS.skills!.questions)).toEqual(["needs_skill", "skills"]);
    const a = { needs_more_than_core: { type: "noul" as const, noul: 0.7 }, extras: { type: "choice" as const, choice: "x: y", confidence: 1, probabilities: { "x: y": 1 } } };
    expect(PART2_POINTS.tool_tiers!.verdict(a)).toBe("wide;extra:x");
    expect(PART2_POINTS.tool_tiers!.verdict(a, { needs_more_than_core: 0.8 })).toBe("narrow;extra:x");
  });
});
