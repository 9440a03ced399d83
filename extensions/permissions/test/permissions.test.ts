import { describe, it, expect, afterEach } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { parseRule, BASE_RULE, type Rule } from "../rules.js";
import { removedTools } from "../decide.js";
import { saveRule } from "../save.js";

let sb: Sandbox | undefined;
afterEach(() => sb?.cleanup());

function project(config: unknown, files: Record<string, string> = {}): Sandbox {
  sb = makeSandbox();
  sb.write(".oceancode/oceancode.json", JSON.stringify(config));
  for (const [f, c] of Object.entries(files)) sb.write(f, c, f.startsWith("~/") ? "home" : "project");
  return sb;
}
async function check(s: Sandbox, ...args: string[]) {
  const r = await runCliAsync(["--dir", s.project, "permissions", "check", ...args], { env: s.env });
  return { ...r, decision: r.stdout.split("\n")[0] };
}

describe("rule parsing", () => {
  const where = { layer: "project" as const, file: "f.json" };
  it("reads tool, pattern with spaces, action", () => {
    expect(parseRule("bash git push * deny", where)).toMatchObject({ tool: "bash", pattern: "git push *", action: "deny" });
    expect(parseRule("Bash(git push:*) deny", where)).toMatchObject({ tool: "bash", pattern: "git push *", action: "deny" });
    expect(parseRule("write src/* ask", where)).toMatchObject({ tool: "edit" });
  });
  it("names what is malformed", () => {
    expect(parseRule("bash *", where)).toMatch(/last word must be allow, ask or deny/);
    expect(parseRule("bash allow", where)).toMatch(/pattern is missing/);
    expect(parseRule(42, where)).toMatch(/expected a string/);
  });
});

describe("permissions check (real CLI)", () => {
  it("the empty config allows (base * * allow) and the floor still denies", async () => {
    const s = project({});
    expect((await check(s, "bash", "npm install")).decision).toBe("ALLOW");
    const f = await check(s, "bash", "git push --force");
    expect(f.decision).toBe("DENY");
    expect(f.stdout).toMatch(/layer: floor/);
  });
  it("last match wins; the rule, layer and file are printed", async () => {
    const s = project({ permission: ["bash * ask", "bash git push * deny", "bash git push origin docs allow", "read *.md allow"] });
    const file = path.join(s.project, ".oceancode", "oceancode.json");
    const a = await check(s, "bash", "npm test");
    expect(a.decision).toBe("ASK");
    expect(a.stdout).toContain("rule: bash * ask");
    expect(a.stdout).toContain("layer: project");
    expect(a.stdout).toContain(`file: ${file}`);
    expect((await check(s, "bash", "git push origin main")).decision).toBe("DENY");
    expect((await check(s, "bash", "git push origin docs")).decision).toBe("ALLOW");
    expect((await check(s, "bash", "git status")).decision).toBe("ALLOW"); // safe list beats the generic ask
  });
  it("chaining: every segment must be allowed, each segment is printed", async () => {
    const s = project({ permission: ["bash * ask"] });
    const r = await check(s, "bash", "git status && rm x");
    expect(r.decision).toBe("ASK");
    expect(r.stdout).toMatch(/segment: ALLOW git status/);
    expect(r.stdout).toMatch(/segment: ASK +rm x/);
  });
  it("a malformed rule is skipped with a warning naming file and rule; the rest apply", async () => {
    const s = project({ permission: ["bash * nope", "bash rm * deny"] });
    const r = await check(s, "bash", "rm x");
    expect(r.decision).toBe("DENY");
    expect(r.stderr).toContain(`${path.join(s.project, ".oceancode", "oceancode.json")}: permission rule "bash * nope" is malformed`);
  });
  it("Claude Code settings: deny beats allow across files", async () => {
    const s = project({}, {
      ".claude/settings.json": JSON.stringify({ permissions: { deny: ["Bash(npm publish:*)"] } }),
      ".claude/settings.local.json": JSON.stringify({ permissions: { allow: ["Bash(npm publish:*)", "Bash(npm run *)"], ask: ["Bash(npm install)"] } }),
    });
    const r = await check(s, "bash", "npm publish --tag x");
    expect(r.decision).toBe("DENY");
    expect(r.stdout).toContain(`file: ${path.join(s.project, ".claude", "settings.json")}`);
    expect((await check(s, "bash", "npm install")).decision).toBe("ASK");
  });
  it("shell.allow / shell.deny take Tool(pattern)", async () => {
    const s = project({ permission: ["bash * ask"], shell: { allow: ["Bash(npm test:*)"], deny: ["Bash(curl:*)"] } });
    expect((await check(s, "bash", "npm test -- --watch")).decision).toBe("ALLOW");
    expect((await check(s, "bash", "curl https://x")).decision).toBe("DENY");
  });

  describe("modes", () => {
    it("bypassPermissions allows, but never reopens a deny rule, the floor or the guard ask", async () => {
      const s = project({ permission: ["bash * ask", "bash rm * deny"], permission_mode: "bypassPermissions" });
      expect((await check(s, "bash", "npm publish")).decision).toBe("ALLOW");
      expect((await check(s, "bash", "rm x")).decision).toBe("DENY");
      expect((await check(s, "bash", "rm -rf /")).decision).toBe("DENY");
      expect((await check(s, "bash", "find / -delete")).decision).toBe("ASK");
    });
    it("acceptEdits allows edits; dontAsk turns asks into denies; plan is read-only but its plan files", async () => {
      const s = project({ permission: ["edit * ask", "bash * ask"] });
      expect((await check(s, "edit", "src/a.ts")).decision).toBe("ASK");
      expect((await check(s, "--mode", "acceptEdits", "edit", "src/a.ts")).decision).toBe("ALLOW");
      expect((await check(s, "--mode", "dontAsk", "bash", "npm test")).decision).toBe("DENY");
      expect((await check(s, "--mode", "dontAsk", "bash", "ls")).decision).toBe("ALLOW");
      expect((await check(s, "--mode", "plan", "write", "src/a.ts")).decision).toBe("DENY");
      expect((await check(s, "--mode", "plan", "write", ".oceancode/plans/p.md")).decision).toBe("ALLOW");
      expect((await check(s, "--mode", "plan", "bash", "git log")).decision).toBe("ALLOW");
      expect((await check(s, "--mode", "plan", "bash", "npm test")).decision).toBe("DENY");
    });
  });

  describe("file tools", () => {
    it(".env is never read, .env.example reads", async () => {
      const s = project({ permission: ["read * allow"] });
      expect((await check(s, "read", ".env")).decision).toBe("DENY");
      expect((await check(s, "read", "config/prod.env")).decision).toBe("DENY");
      expect((await check(s, "read", ".env.example")).decision).toBe("ALLOW");
    });
    it("outside the project asks; refs roots are auto-allowed; @name/../ escapes are caught", async () => {
      const s = project({});
      const shared = path.join(path.dirname(s.project), "shared");
      fs.mkdirSync(path.join(shared, "docs"), { recursive: true });
      fs.writeFileSync(path.join(s.project, ".oceancode", "oceancode.json"), JSON.stringify({ refs: { docs: path.join(shared, "docs") } }));
      const out = await check(s, "read", "/etc/hostname");
      expect(out.decision).toBe("ASK");
      expect(out.stdout).toMatch(/rule: file guard[\s\S]*\/etc\/hostname is outside the project[\s\S]*--auto: rejected/);
      expect((await check(s, "read", "@docs/guide.md")).decision).toBe("ALLOW");
      const esc = await check(s, "read", "@docs/../secret.txt");
      expect(esc.decision).toBe("ASK");
      expect(esc.stdout).toMatch(/walks out of its root/);
      expect((await check(s, "read", "@nope/x")).decision).toBe("ALLOW"); // unknown alias: literal, inside the project
    });
    it("an external_directory rule settles it", async () => {
      const s = project({ permission: ["external_directory /etc/* deny"] });
      expect((await check(s, "read", "/etc/hostname")).decision).toBe("DENY");
    });
  });

  it("bad usage exits 2 with a usage line", async () => {
    const s = project({});
    const r = await runCliAsync(["--dir", s.project, "permissions", "check", "bash"], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage: oceancode permissions check/);
  });
});

describe("tool removal and saving", () => {
  const rules = (...texts: string[]): Rule[] => [BASE_RULE, ...texts.map((t) => parseRule(t, { layer: "project" }) as Rule)];
  it("a tool whose last rule is a * deny is not offered; a narrower last rule keeps it", () => {
    expect([...removedTools(["bash", "read", "write"], rules("bash * deny"), "default")]).toEqual(["bash"]);
    expect([...removedTools(["bash"], rules("bash * deny", "bash git * allow"), "default")]).toEqual([]);
    expect([...removedTools(["write", "edit", "bash"], rules(), "plan")]).toEqual([]);
    expect([...removedTools(["apply_patch"], rules("edit * deny"), "default")]).toEqual(["apply_patch"]);
  });
  it("saves an always rule atomically, keeping other keys and comments", () => {
    sb = makeSandbox();
    const file = sb.write(".oceancode/oceancode.json", '{\n  // mine\n  "model": "x/y",\n  "permission": ["bash * ask"]\n}\n');
    saveRule(sb.project, "bash npm test * allow");
    saveRule(sb.project, "bash npm test * allow");
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("// mine");
    expect(text).toContain('"model": "x/y"');
    expect(text.match(/bash npm test \* allow/g)).toHaveLength(1);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["oceancode.json"]);
  });
});
