/** `oceancode sessions` through the real CLI, on sessions written by real `oceancode run` processes. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCli } from "../../../test/kit/cli.js";

const sb = makeSandbox("oc-sessions-");
const other = path.join(sb.home, "other-project");
let ids: string[] = [];
beforeAll(() => {
  fs.mkdirSync(other, { recursive: true });
  for (const [dir, prompt] of [[sb.project, "first prompt\nsecond line"], [sb.project, "later one"], [other, "elsewhere"]] as const) {
    const r = runCli(["--dir", dir, "run", "--model", "scripted/echo", prompt], { cwd: dir, env: sb.env });
    expect(r.code).toBe(0);
    ids.push(/session: (\S+)/.exec(r.stderr)![1]!);
  }
});
afterAll(() => sb.cleanup());

describe("oceancode sessions", () => {
  it("lists this project's sessions newest first with id, updated, turns, model, title", () => {
    const r = runCli(["sessions"], { cwd: sb.project, env: sb.env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID\s+PIN\s+UPDATED\s+TURNS\s+MODEL\s+TITLE$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^${ids[1]}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+1\\s+scripted/echo\\s+later one$`));
    expect(lines[2]).toMatch(new RegExp(`^${ids[0]}\\s.*\\s1\\s+scripted/echo\\s+first prompt$`));
  });

  it("--json, --all and --limit", () => {
    const j = JSON.parse(runCli(["sessions", "--json", "--all"], { cwd: sb.project, env: sb.env }).stdout) as Array<{ id: string; cwd: string; turns: number; steps: number }>;
    expect(j.map((s) => s.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(j[0]).toMatchObject({ cwd: other, turns: 1, steps: 1 });
    const all = runCli(["sessions", "--all", "--limit", "1"], { cwd: sb.project, env: sb.env });
    expect(all.stdout.trim().split("\n")).toHaveLength(2);
    expect(all.stdout).toContain("DIRECTORY");
    expect(all.stdout).toContain(other);
  });

  it("a project with no sessions says so; bad usage exits 2 with the usage line", () => {
    const empty = path.join(sb.home, "empty");
    fs.mkdirSync(empty);
    const r = runCli(["--dir", empty, "sessions"], { cwd: empty, env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`no sessions for ${empty} (oceancode sessions --all lists every project)\n`);
    for (const bad of [["--limit", "0"], ["--nope"], ["extra"]]) {
      const b = runCli(["sessions", ...bad], { cwd: sb.project, env: sb.env });
      expect(b.code).toBe(2);
      expect(b.stderr).toContain("usage: oceancode sessions");
    }
  });

  it("a listed session resumes with run --session", () => {
    const r = runCli(["run", "--session", ids[0]!, "again"], { cwd: sb.project, env: sb.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ok: again\n");
    const j = JSON.parse(runCli(["sessions", "--json"], { cwd: sb.project, env: sb.env }).stdout) as Array<{ id: string; turns: number }>;
    expect(j[0]).toMatchObject({ id: ids[0], turns: 2 });
  });
});

describe("a session's first events", () => {
  it("a SessionStart hook's outcome is stored with the session (the session's row is queued before any tap records against it)", () => {
    const hb = makeSandbox("oc-sessions-hook-");
    try {
      hb.write(".oceancode/settings.json", JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "true" }] }] } }), "home");
      const r = runCli(["run", "--model", "scripted/echo", "hi"], { cwd: hb.project, env: hb.env });
      expect(r.stderr).not.toContain("skipped an unstorable");
      expect(r.code).toBe(0);
      const db = new Database(path.join(hb.home, ".local", "share", "oceancode", "oceancode.db"), { readonly: true });
      const kinds = (db.prepare("SELECT json FROM events ORDER BY seq").all() as Array<{ json: string }>).map((e) => (JSON.parse(e.json) as { event: string }).event);
      db.close();
      expect(kinds[0]).toBe("SessionStart");
    } finally {
      hb.cleanup();
    }
  });
});
