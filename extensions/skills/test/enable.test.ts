/** The enable fold (four tiers, first off wins; an explicit enable beats the project policy only) and the toggles' store edits. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Root } from "../../../kernel/api.js";
import { type ProjectTrust, type TrustService } from "../../trust/api.js";
import { emptyTrust } from "../../trust/kit.js";
import { SKILL_AMBIGUOUS } from "../api.js";
import { isSkillNameError } from "../kit.js";
import { readRoot } from "../catalog.js";
import { entryMatches, foldEnable, pick, userDisable, userEnable, type EnableInputs, type EnableSubject } from "../enable.js";
import { createSkillsService } from "../service.js";
import { UserSkillStore } from "../user-store.js";

const none: EnableInputs = { everythingOff: false, userDisabled: [], explicitEnabled: [], policy: {} };
const tdd: EnableSubject = { id: "local.ocean_code:tdd", name: "tdd" };
const lint: EnableSubject = { id: "plugin.claude_code:lint", name: "lint", plugin: "pack", pluginEnabled: true };

describe("foldEnable", () => {
  it("everything is enabled by default", () => {
    expect(foldEnable(tdd, none)).toEqual({ enabled: true });
  });

  it("the first tier that turns an item off names the reason", () => {
    const all: EnableInputs = { everythingOff: true, userDisabled: ["tdd"], explicitEnabled: [], policy: { disabled: ["tdd"], mode: "allowlist" } };
    expect(foldEnable({ ...tdd, pluginEnabled: false }, all)).toEqual({ enabled: false, reason: "everything off" });
    expect(foldEnable({ ...tdd, pluginEnabled: false }, { ...all, everythingOff: false })).toEqual({ enabled: false, reason: "disabled (plugin)" });
    expect(foldEnable(tdd, { ...all, everythingOff: false })).toEqual({ enabled: false, reason: "disabled (user)" });
    expect(foldEnable(tdd, { ...all, everythingOff: false, userDisabled: [] })).toEqual({ enabled: false, reason: "disabled (project)" });
    expect(foldEnable(tdd, { ...none, policy: { mode: "allowlist" } })).toEqual({ enabled: false, reason: "not in allowlist" });
    expect(foldEnable(tdd, { ...none, policy: { mode: "allowlist", enabled: ["local.ocean_code:tdd"] } })).toEqual({ enabled: true });
  });

  it("an explicit enable beats the project's disabled and allowlist, never the user tier, a disabled plugin or the master switch", () => {
    const ex = { ...none, explicitEnabled: ["local.ocean_code:tdd"] };
    expect(foldEnable(tdd, { ...ex, policy: { disabled: ["tdd"] } }).enabled).toBe(true);
    expect(foldEnable(tdd, { ...ex, policy: { mode: "allowlist", enabled: [] } }).enabled).toBe(true);
    expect(foldEnable(tdd, { ...ex, userDisabled: [tdd.id] })).toEqual({ enabled: false, reason: "disabled (user)" });
    expect(foldEnable({ ...tdd, pluginEnabled: false }, ex)).toEqual({ enabled: false, reason: "disabled (plugin)" });
    expect(foldEnable(tdd, { ...ex, everythingOff: true })).toEqual({ enabled: false, reason: "everything off" });
  });

  it("an entry names an item by stable id, bare name (every copy) or <plugin>:<name>", () => {
    expect(entryMatches("local.ocean_code:tdd", tdd)).toBe(true);
    expect(entryMatches("user.ocean_code:tdd", tdd)).toBe(false);
    expect(entryMatches("tdd", tdd)).toBe(true);
    expect(entryMatches("pack:lint", lint)).toBe(true);
    expect(entryMatches("other:lint", lint)).toBe(false);
  });
});

describe("the user-tier edits", () => {
  const repoReview: EnableSubject = { id: "repo.claude_code:review", name: "review" };
  const userReview: EnableSubject = { id: "user.claude_code:review", name: "review" };

  it("disable adds the stable id once", () => {
    expect(userDisable([], tdd)).toEqual([tdd.id]);
    expect(userDisable([tdd.id], tdd)).toEqual([tdd.id]);
  });

  it("enable removes the id; a legacy bare entry becomes the other copies' ids, so they stay off", () => {
    expect(userEnable([tdd.id, "x"], tdd, [tdd])).toEqual(["x"]);
    expect(userEnable(["review"], repoReview, [repoReview, userReview])).toEqual([userReview.id]);
  });

  it("pick: an id, else every copy of a bare name, else a qualified name", () => {
    const items = [
      { ...repoReview, qualifiedName: "repo:review" },
      { ...userReview, qualifiedName: "user:review" },
      { ...lint, qualifiedName: "pack:lint" },
    ];
    expect(pick(items, "user.claude_code:review").map((x) => x.id)).toEqual([userReview.id]);
    expect(pick(items, "review")).toHaveLength(2);
    expect(pick(items, "repo:review").map((x) => x.id)).toEqual([repoReview.id]);
    expect(pick(items, "pack:lint").map((x) => x.id)).toEqual([lint.id]);
    expect(pick(items, "nope")).toEqual([]);
  });
});

describe("the service over real files", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-skills-enable-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    const f = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
  };
  write("p/.claude/skills/review/SKILL.md", "---\ndescription: repo review\n---\nx\n");
  write("h/.claude/skills/review/SKILL.md", "---\ndescription: user review\n---\nx\n");
  write("h/.claude/skills/solo/SKILL.md", "---\ndescription: solo\n---\nx\n");
  write("off/skills/gone/SKILL.md", "---\ndescription: from a disabled plugin\n---\nx\n");
  const root = (tier: Root["tier"], ecosystem: string, rel: string, plugin?: Root["plugin"]): Root => ({
    tier,
    ecosystem,
    dir: path.join(tmp, rel),
    project: path.join(tmp, "p"),
    trustedByDefault: tier !== "repo",
    ...(plugin ? { plugin } : {}),
  });
  const roots = [root("repo", "claude", "p/.claude"), root("user", "claude", "h/.claude"), root("plugin", "oceancode", "off", { name: "off-pack", enabled: false, trusted: true, source: "oceancode" })];
  let trustRecord: ProjectTrust = emptyTrust();
  const trust: TrustService = {
    file: path.join(tmp, "trust.json"),
    get: () => structuredClone(trustRecord),
    problem: () => undefined,
    repoTrusted: () => false,
    mcpTrusted: () => false,
    update(_p, change) {
      change(trustRecord);
      return trustRecord;
    },
  };
  const service = createSkillsService({
    walk: () => roots.flatMap((r) => readRoot(r, true).map((item) => ({ item, root: r }))),
    project: path.join(tmp, "p"),
    store: new UserSkillStore(path.join(tmp, "h/.oceancode/skill-state.json"), () => {}),
    trust,
    policy: () => ({ disabled: ["solo"] }),
    warn: () => {},
  });

  it("list() has the enabled items only; all() says why the others are off", () => {
    expect(service.list().map((s) => s.qualifiedName)).toEqual(["repo:review", "user:review"]);
    expect(service.all().map((x) => `${x.skill.id} ${x.enabled ? "on" : x.reason}`)).toEqual([
      "repo.claude_code:review on",
      "user.claude_code:review on",
      "user.claude_code:solo disabled (project)",
      "plugin.ocean_code:gone disabled (plugin)",
    ]);
  });

  it("a disabled copy does not force a qualified name on the one left", () => {
    service.setEnabled("user.claude_code:review", false);
    expect(service.list().map((s) => s.qualifiedName)).toEqual(["review"]);
    expect(service.resolve("review")?.id).toBe("repo.claude_code:review");
    expect(JSON.parse(fs.readFileSync(path.join(tmp, "h/.oceancode/skill-state.json"), "utf8"))).toEqual({ disabled: ["user.claude_code:review"] });
  });

  it("a bare name two items share is refused with the candidate ids", () => {
    let err: unknown;
    try {
      service.setEnabled("review", true);
    } catch (e) {
      err = e;
    }
    expect(isSkillNameError(err) && err.code).toBe(SKILL_AMBIGUOUS);
    expect(isSkillNameError(err) && err.candidates).toEqual(["repo.claude_code:review", "user.claude_code:review"]);
  });

  it("enable clears the user disable and records an explicit enable that beats the project policy", () => {
    service.setEnabled("solo", true);
    expect(trustRecord.enabled_skills).toEqual(["user.claude_code:solo"]);
    expect(service.all().find((x) => x.skill.name === "solo")?.enabled).toBe(true);
    service.setEnabled("solo", false);
    expect(trustRecord.enabled_skills).toEqual([]);
    expect(service.all().find((x) => x.skill.name === "solo")?.reason).toBe("disabled (user)");
  });

  it("disable-all writes every id; enable-all clears the user tier only; the master switch turns everything off", () => {
    service.setAll(false);
    expect(service.list()).toEqual([]);
    service.setAll(true);
    expect(service.list().map((s) => s.name)).toEqual(["review", "review"]);
    service.setEverythingOff(true);
    expect(service.all().every((x) => x.reason === "everything off")).toBe(true);
    expect(service.listing()).toBe("");
    service.setEverythingOff(false);
    expect(service.list()).toHaveLength(2);
  });
});

describe("skill-state.json", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-skill-state-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is written atomically and keeps keys it does not own", () => {
    const file = path.join(dir, "ok", "skill-state.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ note: "mine", disabled: ["a"] }));
    new UserSkillStore(file, () => {}).write(["a", "b", "b"]);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ note: "mine", disabled: ["a", "b"] });
    expect(fs.readdirSync(path.dirname(file))).toEqual(["skill-state.json"]);
  });

  it("a corrupt file reads as nothing disabled (one warning) and is never overwritten", () => {
    const file = path.join(dir, "bad", "skill-state.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "{ not json");
    const warnings: string[] = [];
    const store = new UserSkillStore(file, (m) => warnings.push(m));
    expect(store.disabled()).toEqual([]);
    expect(store.disabled()).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(() => store.write(["x"])).toThrow(/not a valid skill-state file/);
    expect(fs.readFileSync(file, "utf8")).toBe("{ not json");
  });
});
