/** allowed-tools: which patterns name a call, which asks are lifted, and the grant's lifetime (one turn). */
import { describe, expect, it } from "vitest";
import type { ToolCallContext, ToolResult } from "../../engine/api.js";
import type { PermissionDecision, PermissionsService } from "../../permissions/api.js";
import type { Skill, SkillsService } from "../../skills/api.js";
import { AllowedTools, liftable, matchesAllowed } from "../grants.js";

describe("matchesAllowed", () => {
  it("a bare tool name matches by Claude Code name or our own", () => {
    expect(matchesAllowed("Read", "Read", "read", { file_path: "/x" })).toBe(true);
    expect(matchesAllowed("read", "Read", "read", {})).toBe(true);
    expect(matchesAllowed("Grep", "Read", "read", {})).toBe(false);
    expect(matchesAllowed("Bash(*)", "Bash", "bash", { command: "ls" })).toBe(true);
  });

  it("Bash(prefix:*) matches the prefix as whole words; an exact pattern only that command", () => {
    expect(matchesAllowed("Bash(git status:*)", "Bash", "bash", { command: "git status" })).toBe(true);
    expect(matchesAllowed("Bash(git status:*)", "Bash", "bash", { command: "git status --short" })).toBe(true);
    expect(matchesAllowed("Bash(git status:*)", "Bash", "bash", { command: "git statusx" })).toBe(false);
    expect(matchesAllowed("Bash(npm test)", "Bash", "bash", { command: "npm test" })).toBe(true);
    expect(matchesAllowed("Bash(npm test)", "Bash", "bash", { command: "npm test -- -u" })).toBe(false);
  });

  it("a command with shell operators never matches a prefix (no second command rides along)", () => {
    for (const command of ["git status; rm -rf x", "git status && curl x", "git status | sh", "git status $(id)", "git status `id`", "git status > f", "git status\nrm x"]) {
      expect(matchesAllowed("Bash(git status:*)", "Bash", "bash", { command })).toBe(false);
    }
  });

  it("an argument on a tool other than Bash grants nothing (paths are not interpreted)", () => {
    expect(matchesAllowed("Read(src/**)", "Read", "read", { file_path: "src/a.ts" })).toBe(false);
  });
});

describe("liftable", () => {
  it("lifts a catch-all ask rule from a config layer only", () => {
    expect(liftable("bash * ask", "global")).toBe(true);
    expect(liftable("* * ask", "project")).toBe(true);
    expect(liftable("bash git push * ask", "project")).toBe(false);
    expect(liftable("external_directory * ask", "default")).toBe(false);
    expect(liftable("shell guard", "guard")).toBe(false);
    expect(liftable("webfetch * ask", "mode")).toBe(false);
  });
});

describe("AllowedTools", () => {
  const skill = { qualifiedName: "git-helper", allowedTools: ["Bash(git status:*)", "Read"] } as Skill;
  let skillTrusted = true;
  const service = { resolve: (n: string) => (n === "git-helper" ? skill : undefined), trusted: () => skillTrusted } as unknown as SkillsService;
  let decision: PermissionDecision = { action: "ask", reason: "rule", rule: "bash * ask", layer: "global" };
  const perms = { check: async () => decision, modeOf: () => "default" } as unknown as PermissionsService;
  const call = (name: string, input: Record<string, unknown>, turn = 1, kind: "read" | "execute" = "execute"): ToolCallContext =>
    ({
      session: { info: { id: "s1", overrides: {} } },
      turn,
      call: { id: "c", name, input },
      tool: { kind, ruleSubject: (i: Record<string, unknown>) => String(i.command ?? i.path ?? "") },
      claude: { toolName: name === "bash" ? "Bash" : name === "read" ? "Read" : "Skill", toolInput: input },
      cwd: "/p",
    }) as unknown as ToolCallContext;
  const loaded = (a: AllowedTools, turn = 1) => a.observe({ callId: "c", name: "skill", content: "ok", isError: false } as ToolResult, call("skill", { skill: "git-helper" }, turn));

  it("grants nothing before the skill is loaded, then allows a listed call for the rest of that turn only", async () => {
    const a = new AllowedTools(service, () => perms, "allowed-tools");
    expect(await a.authorize(call("bash", { command: "git status" }))).toBeUndefined();
    loaded(a);
    expect(await a.authorize(call("bash", { command: "git status" }))).toMatchObject({ action: "allow", by: "allowed-tools", rule: "Bash(git status:*)" });
    expect(await a.authorize(call("bash", { command: "git push" }))).toBeUndefined();
    expect(await a.authorize(call("bash", { command: "git status" }, 2))).toBeUndefined();
  });

  it("an untrusted skill (or a skills service that cannot say) grants nothing, and the skill result says so", async () => {
    skillTrusted = false;
    try {
      const a = new AllowedTools(service, () => perms, "allowed-tools");
      const out = loaded(a);
      expect(out.content).toContain("allowed-tools of skill 'git-helper' not applied");
      expect(await a.authorize(call("bash", { command: "git status" }))).toBeUndefined();
      expect(await a.authorize(call("read", { file_path: "/p/x" }, 1, "read"))).toBeUndefined();
    } finally {
      skillTrusted = true;
    }
    const legacy = new AllowedTools({ resolve: service.resolve } as unknown as SkillsService, () => perms, "allowed-tools");
    legacy.observe({ callId: "c", name: "skill", content: "ok", isError: false } as ToolResult, call("skill", { skill: "git-helper" }));
    expect(await legacy.authorize(call("bash", { command: "git status" }))).toBeUndefined();
  });

  it("never reopens a deny, a guard ask or a narrower ask rule; leaves an allow to the later taps", async () => {
    const a = new AllowedTools(service, () => perms, "allowed-tools");
    loaded(a);
    for (const d of [
      { action: "deny", reason: "floor", rule: "dangerous floor", layer: "floor" },
      { action: "ask", reason: "secrets", rule: "shell guard", layer: "guard", autoApprove: false },
      { action: "ask", reason: "rule", rule: "bash git status * ask", layer: "project" },
      { action: "allow", reason: "base", rule: "* * allow", layer: "default" },
    ] as PermissionDecision[]) {
      decision = d;
      expect(await a.authorize(call("bash", { command: "git status" }))).toBeUndefined();
    }
    decision = { action: "ask", reason: "rule", rule: "bash * ask", layer: "global" };
  });

  it("without a permissions service only read-kind tools are granted", async () => {
    const a = new AllowedTools(service, () => undefined, "allowed-tools");
    loaded(a);
    expect(await a.authorize(call("read", { path: "/p/a" }, 1, "read"))).toMatchObject({ action: "allow" });
    expect(await a.authorize(call("bash", { command: "git status" }))).toBeUndefined();
  });

  it("a failed skill call grants nothing", async () => {
    const a = new AllowedTools(service, () => perms, "allowed-tools");
    a.observe({ callId: "c", name: "skill", content: "no", isError: true } as ToolResult, call("skill", { skill: "git-helper" }));
    expect(await a.authorize(call("bash", { command: "git status" }))).toBeUndefined();
  });
});
