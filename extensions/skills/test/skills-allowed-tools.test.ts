/**
 * allowed-tools end to end: `run` without --auto (every ask is rejected) in a project whose config asks for
 * every bash command and denies `touch`. A skill lists `Bash(mkdir:*)` and `Bash(touch:*)`: after the
 * model loads it, `mkdir ...` runs without asking; a command with a second command riding along still
 * asks (rejected), and the deny rule still denies. (echo would not do: it is on the read-only safe list.)
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolResultOf as resultOf, blockText as textOf } from "../../../test/kit/fakes/anthropic-server.js";
import { runOnceOnFake } from "../../../test/kit/file-fixtures.js";

const CALLS = [
  { id: "t_before", name: "bash", input: { command: "mkdir before" } },
  { id: "t_load", name: "skill", input: { skill: "greeter" } },
  { id: "t_hi", name: "bash", input: { command: "mkdir -p made" } },
  { id: "t_ride", name: "bash", input: { command: "mkdir first; mkdir rode-along" } },
  { id: "t_bye", name: "bash", input: { command: "touch denied.txt" } },
];

const { fake, sb, result } = runOnceOnFake("oc-skills-allowed-", ["--model", "anthropic/claude-sonnet-4-5", "greet"], (sb, fake) => {
  let i = 0;
  fake.respond(() => {
    const c = CALLS[i++];
    return c ? { text: `step ${i}`, toolCalls: [c] } : { text: "finished" };
  });
  sb.write(".oceancode/skills/greeter/SKILL.md", "---\ndescription: greet\nallowed-tools: Bash(mkdir:*), Bash(touch:*)\n---\nMake directories.\n");
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask", "bash touch * deny"] }));
});

describe("allowed-tools through run", () => {
  it("the run completes every step", () => {
    expect(result.stdout + result.stderr).toContain("finished");
    expect(fake.requests).toHaveLength(CALLS.length + 1);
  });

  it("before the skill is loaded, the catch-all ask rule asks (and run without --auto rejects)", () => {
    const r = resultOf(fake.requests[1]!, "t_before");
    expect(textOf(r)).toMatch(/reject/i);
    expect(fs.existsSync(path.join(sb.project, "before"))).toBe(false);
  });

  it("after the skill is loaded, a listed command runs without asking", () => {
    const r = resultOf(fake.requests[3]!, "t_hi");
    expect(r?.is_error, textOf(r)).toBeFalsy();
    expect(fs.statSync(path.join(sb.project, "made")).isDirectory()).toBe(true);
  });

  it("a second command riding along still asks", () => {
    const r = resultOf(fake.requests[4]!, "t_ride");
    expect(textOf(r)).toMatch(/reject/i);
    expect(fs.existsSync(path.join(sb.project, "rode-along"))).toBe(false);
  });

  it("a deny rule is never reopened", () => {
    const r = resultOf(fake.requests[5]!, "t_bye");
    expect(textOf(r)).toMatch(/denied/i);
    expect(fs.existsSync(path.join(sb.project, "denied.txt"))).toBe(false);
  });
});
