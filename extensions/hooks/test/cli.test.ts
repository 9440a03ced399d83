import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { writeHooks } from "./fixtures.js";
import type { HooksReport } from "../api.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-hooks-cli-");
});
afterEach(() => sb.cleanup());

const oc = (...args: string[]) => runCli(["--dir", sb.project, "--home", sb.home, ...args], { env: sb.env, cwd: sb.project });
const listJson = (): HooksReport => JSON.parse(oc("hooks", "list", "--json").stdout) as HooksReport;

describe("oceancode hooks list", () => {
  it("lists every ecosystem's sources in walk order, holds the repo tier until trusted", () => {
    writeHooks(sb, ".oceancode/hooks.json", { Stop: [{ hooks: [{ type: "command", command: "local-stop" }] }] });
    writeHooks(sb, ".claude/settings.json", { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 10 }] }] });
    writeHooks(sb, ".claude/settings.local.json", { UserPromptSubmit: [{ hooks: [{ type: "command", command: "mine" }] }] });
    writeHooks(sb, ".grok/hooks/a.json", { PostToolUse: [{ hooks: [{ type: "http", url: "http://127.0.0.1:9/x" }] }] });
    writeHooks(sb, ".claude/settings.json", { SessionStart: [{ hooks: [{ type: "command", command: "user-start" }] }] }, "home");
    sb.write(".grok/hooks/b.json", "{not json", "home");
    const r = oc("hooks", "list");
    expect(r.code).toBe(0);
    const out = r.stdout.trim().split("\n");
    const sourceLines = out.filter((l) => !l.startsWith(" ") && !l.startsWith("HOOKS_OK"));
    expect(sourceLines.map((l) => l.split("  ").slice(0, 2).join(" "))).toEqual([
      "local oceancode",
      "repo claude",
      "repo claude",
      "repo grok",
      "user claude",
      "user grok",
    ]);
    expect(sourceLines[1]).toContain(`${path.join(sb.project, ".claude", "settings.json")}  held: untrusted`);
    expect(sourceLines[0]).toContain("loaded");
    expect(sourceLines[5]).toContain("invalid");
    expect(out).toContain("    PreToolUse  matcher=Bash  command: ./guard.sh  timeout=10s");
    expect(out.at(-1)).toBe("HOOKS_OK sources=6 handlers=5 loaded=2");

    const j = listJson();
    expect(j.repo_trusted).toBe(false);
    expect(j.sources.find((s) => s.path.endsWith(".claude/settings.local.json"))?.shared_with_claude_code).toBe(true);

    expect(oc("trust", "repo", "on").code).toBe(0);
    const after = oc("hooks", "list").stdout.trim().split("\n");
    expect(after.at(-1)).toBe("HOOKS_OK sources=6 handlers=5 loaded=5");
    expect(listJson().repo_trusted).toBe(true);
  });

  it("counts unsupported handlers and events as skipped, never fatal", () => {
    sb.write(
      ".oceancode/settings.json",
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Edit", hooks: [{ type: "prompt", prompt: "is this ok?" }, { type: "command", command: "ok.sh" }, { type: "agent", prompt: "x" }] }],
          Notification: [{ hooks: [{ type: "command", command: "notify" }] }],
          PreCompact: [{ hooks: [{ type: "command", command: "a" }, { type: "command", command: "b" }] }],
        },
      }),
    );
    const r = oc("hooks", "list");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("loaded  skipped: 5 unsupported handlers");
    expect(r.stdout).toContain("PreToolUse  matcher=Edit  command: ok.sh");
    expect(r.stdout.trim().split("\n").at(-1)).toBe("HOOKS_OK sources=1 handlers=1 loaded=1");
  });

  it("reports an unreadable file and a malformed hooks object, and still lists the rest", () => {
    sb.write(".oceancode/settings.json", JSON.stringify({ hooks: { PreToolUse: "nope" } }));
    const unreadable = sb.write(".oceancode/hooks.json", "{}");
    fs.chmodSync(unreadable, 0o000);
    writeHooks(sb, ".claude/settings.json", { Stop: [{ hooks: [{ type: "command", command: "s" }] }] }, "home");
    const j = listJson();
    const byPath = (end: string) => j.sources.find((s) => s.path.endsWith(end));
    expect(byPath(".oceancode/settings.json")?.status).toBe("invalid");
    expect(byPath(".oceancode/settings.json")?.error).toContain("hooks.PreToolUse");
    if (process.getuid?.() !== 0) expect(byPath(".oceancode/hooks.json")?.status).toBe("unreadable");
    expect(byPath(".claude/settings.json")?.status).toBe("loaded");
  });

  it("reads installed plugins' hooks/hooks.json: held while disabled or untrusted", () => {
    const plug = (name: string) => {
      const dir = path.join(sb.home, "plugins-src", name);
      fs.mkdirSync(path.join(dir, "hooks"), { recursive: true });
      fs.writeFileSync(path.join(dir, "hooks", "hooks.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: `${name}-stop` }] }] } }));
      return dir;
    };
    sb.write(
      ".oceancode/plugins/installed.json",
      JSON.stringify({
        plugins: [
          { name: "alpha", path: plug("alpha"), enabled: true, trusted: true },
          { name: "beta", path: plug("beta"), enabled: true, trusted: false },
          { name: "gamma", path: plug("gamma"), enabled: false, trusted: true },
        ],
      }),
      "home",
    );
    const j = listJson();
    const st = (n: string) => j.sources.find((s) => s.plugin === n)?.status;
    expect(st("alpha")).toBe("loaded");
    expect(st("beta")).toBe("held: untrusted");
    expect(st("gamma")).toBe("held: disabled plugin");
  });
});

describe("hooks list is cheap", () => {
  it("imports no model SDK (it only reads files)", async () => {
    const { spawnSync } = await import("node:child_process");
    const { CLI } = await import("../../../test/kit/cli.js");
    writeHooks(sb, ".oceancode/settings.json", { Stop: [{ hooks: [{ type: "command", command: "touch ran" }] }] });
    const logger = sb.write(
      "resolve-log.mjs",
      `import { register } from "node:module";\nregister("data:text/javascript," + encodeURIComponent(\`export async function resolve(s, c, n) { const r = await n(s, c); if (/anthropic-ai|openai|@modelcontextprotocol/.test(r.url)) process.stderr.write("SDK " + r.url + "\\\\n"); return r; }\`));\n`,
      "home",
    );
    const r = spawnSync(process.execPath, ["--import", logger, CLI, "--dir", sb.project, "--home", sb.home, "hooks", "list"], { env: sb.env, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("HOOKS_OK sources=1 handlers=1 loaded=1");
    expect(r.stderr).not.toContain("SDK ");
    expect(fs.existsSync(path.join(sb.project, "ran"))).toBe(false);
  });
});

describe("oceancode hooks add / remove", () => {
  it("writes Claude Code's three files by scope, keeps other keys, and removes exactly one handler", () => {
    sb.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(ls)"] } }));
    const add = oc("hooks", "add", "PreToolUse", "--matcher", "Bash", "--command", "./scripts/guard.sh", "--timeout", "10");
    expect(add.stderr).toBe("");
    expect(add.code).toBe(0);
    const projectFile = path.join(sb.project, ".claude", "settings.json");
    expect(add.stdout).toBe(`HOOK_ADDED ${projectFile}\n`);
    const doc = JSON.parse(fs.readFileSync(projectFile, "utf8"));
    expect(doc.permissions).toEqual({ allow: ["Bash(ls)"] });
    expect(doc.hooks.PreToolUse).toEqual([{ matcher: "Bash", hooks: [{ type: "command", command: "./scripts/guard.sh", timeout: 10 }] }]);

    expect(oc("hooks", "add", "Stop", "--command", "u", "--scope", "user").stdout).toBe(`HOOK_ADDED ${path.join(sb.home, ".claude", "settings.json")}\n`);
    expect(oc("hooks", "add", "Stop", "--command", "l", "--scope", "local").stdout).toBe(`HOOK_ADDED ${path.join(sb.project, ".claude", "settings.local.json")}\n`);

    const miss = oc("hooks", "remove", "PreToolUse", "--matcher", "Edit", "--command", "./scripts/guard.sh");
    expect(miss.code).toBe(1);
    expect(miss.stderr).toBe("hooks remove: no such handler\n");
    const rm = oc("hooks", "remove", "PreToolUse", "--matcher", "Bash", "--command", "./scripts/guard.sh");
    expect(rm.code).toBe(0);
    expect(rm.stdout).toBe(`HOOK_REMOVED ${projectFile}\n`);
    const after = JSON.parse(fs.readFileSync(projectFile, "utf8"));
    expect(after.hooks.PreToolUse).toBeUndefined();
    expect(after.permissions).toEqual({ allow: ["Bash(ls)"] });
    expect(oc("hooks", "remove", "PreToolUse", "--matcher", "Bash", "--command", "./scripts/guard.sh").code).toBe(1);
  });

  it("refuses bad usage with exit 2 and never overwrites an invalid settings file", () => {
    expect(oc("hooks", "add", "Notification", "--command", "x").code).toBe(2);
    expect(oc("hooks", "add", "Stop").code).toBe(2);
    expect(oc("hooks", "add", "Stop", "--command", "x", "--scope", "global").code).toBe(2);
    expect(oc("hooks", "add", "Stop", "--command", "x", "--timeout", "-1").code).toBe(2);
    expect(oc("hooks", "add", "PreToolUse", "--command", "x", "--matcher", "(").code).toBe(2);
    const bad = oc("hooks", "list", "--yaml");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("usage: oceancode hooks");
    const f = sb.write(".claude/settings.json", "{ broken");
    const r = oc("hooks", "add", "Stop", "--command", "x");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(f);
    expect(fs.readFileSync(f, "utf8")).toBe("{ broken");
  });
});
