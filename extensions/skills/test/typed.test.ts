/** typed.ts units: what counts as a typed slash form, and how a typed name resolves (as the user). */
import { describe, expect, it } from "vitest";
import { parseTyped, resolveTyped, typedSlashTap } from "../typed.js";
import { resolveIn } from "../catalog.js";
import type { Skill, SkillsService } from "../api.js";
import type { PromptInput, TurnContext } from "../../engine/api.js";

const skill = (o: Partial<Skill> & { name: string }): Skill => ({
  kind: "skill",
  qualifiedName: o.name,
  id: `repo.claude_code:${o.name}`,
  tier: "repo",
  ecosystem: "claude",
  file: `/p/.claude/skills/${o.name}/SKILL.md`,
  dir: `/p/.claude/skills/${o.name}`,
  description: "d",
  modelInvocable: true,
  userInvocable: true,
  shadowed: false,
  ...o,
});

const items = [
  skill({ name: "tdd", tier: "local", id: "local.ocean_code:tdd" }),
  skill({ name: "hidden", userInvocable: false }),
  skill({ name: "lint", plugin: "acme", qualifiedName: "acme:lint", tier: "plugin" }),
];
const service: SkillsService = {
  list: () => items,
  reload: () => items,
  resolve: (n, o) => resolveIn(items, n, o?.by),
  invoke: (s, args) => ({ skill: s, text: `BODY ${s.name} [${args}]` }),
  listing: () => "",
};

describe("parseTyped", () => {
  it("reads /name, /plugin:name, stable ids, with or without arguments", () => {
    expect(parseTyped("/review src/a.ts")).toEqual({ name: "review", args: "src/a.ts" });
    expect(parseTyped("  /acme:lint")).toEqual({ name: "acme:lint", args: "" });
    expect(parseTyped("/user.claude_code:review a  b ")).toEqual({ name: "user.claude_code:review", args: "a  b" });
    expect(parseTyped("/deploy\nstaging\nnow")).toEqual({ name: "deploy", args: "staging\nnow" });
  });
  it("a path (a second slash in the first word) or a lone / is not a slash form", () => {
    for (const t of ["/usr/bin/x --help", "/tmp/a.log", "/ foo", "/", "//comment", "/a/b", "hello /review", "/*glob*/"]) expect(parseTyped(t), t).toBeUndefined();
  });
});

describe("resolveTyped", () => {
  it("a qualified <tier>:<name> reaches a unique (bare) name; <plugin>:name a plugin skill", () => {
    expect("skill" in resolveTyped(service, "local:tdd") && resolveTyped(service, "local:tdd")).toMatchObject({ skill: { name: "tdd" } });
    expect(resolveTyped(service, "acme:lint")).toMatchObject({ skill: { name: "lint" } });
    expect(resolveTyped(service, "lint")).toMatchObject({ skill: { name: "lint" } });
  });
  it("warns for an unknown name, an unknown plugin prefix and a model-only skill", () => {
    expect(resolveTyped(service, "nosuch")).toEqual({ warning: "/nosuch is not a skill or command; sent as text" });
    expect(resolveTyped(service, "other:x")).toEqual({ warning: "/other:x: no enabled plugin named 'other'; sent as text" });
    expect(resolveTyped(service, "hidden")).toMatchObject({ warning: expect.stringContaining("for the model only") });
  });
});

describe("the userPrompt tap", () => {
  const tc = { session: { info: { id: "s1" } } } as unknown as TurnContext;
  it("rewrites a typed skill, leaves text and blocked prompts alone, warns once for an unknown name", () => {
    const warned: string[] = [];
    const tap = typedSlashTap(service, (_sid, t) => warned.push(t));
    const run = (text: string, extra: Partial<PromptInput> = {}) => tap({ text, context: [], ...extra }, tc).text;
    expect(run("/tdd x")).toBe(`The user ran the /tdd skill (file ${items[0]!.file}; base directory ${items[0]!.dir}). Follow these instructions:\n\nBODY tdd [x]`);
    expect(run("plain text")).toBe("plain text");
    expect(run("/tdd x", { blocked: { reason: "no", by: "t" } })).toBe("/tdd x");
    expect(run("/nosuch y")).toBe("/nosuch y");
    expect(warned).toEqual(["/nosuch is not a skill or command; sent as text"]);
  });
});
