/**
 * The json-store example replacing the bundled storage (extensions.replace), installed in
 * ~/.oceancode/extensions/ and driven through the compiled CLI: it serves `sessions`, `run --continue`,
 * `export`, `migrate` and `doctor --storage`; no oceancode.db is created.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { globalConfig, install, oc } from "./helpers.js";

let sb: Sandbox;
let dataDir: string;
beforeEach(() => {
  sb = makeSandbox("oc-sdk-json-");
  install(sb, "json-store");
  globalConfig(sb, { extensions: { replace: { storage: "json-store" } } });
  dataDir = path.join(sb.env.XDG_DATA_HOME!, "oceancode");
});
afterEach(() => sb.cleanup());

const list = (args: string[] = []) => JSON.parse(oc(sb, ["sessions", "--json", ...args]).stdout) as Array<{ id: string; turns: number; cwd: string; model: string; title?: string }>;

describe("json-store as the storage provider", () => {
  it("stores runs as JSON files; sessions lists them; --continue resumes; export writes the whole session", () => {
    const first = oc(sb, ["run", "--model", "scripted/echo", "first question"]);
    expect(first.stderr).not.toMatch(/failed|error/i);
    expect(first.code).toBe(0);
    const id = /session: (\S+)/.exec(first.stderr)![1]!;
    const files = fs.readdirSync(path.join(dataDir, "json-store"));
    expect(files).toEqual([`${id}.json`]);
    expect(fs.existsSync(path.join(dataDir, "oceancode.db"))).toBe(false);

    const table = oc(sb, ["sessions"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^ID\\s+PIN\\s+UPDATED\\s+TURNS\\s+MODEL\\s+TITLE\\n${id}\\s+\\S+ \\S+\\s+1\\s+scripted/echo\\s+first question$`, "m"));

    const second = oc(sb, ["run", "--continue", "--model", "scripted/echo", "second question"]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`session: ${id}`);
    expect(list()).toMatchObject([{ id, turns: 2, cwd: sb.project, model: "scripted/echo" }]);

    const third = oc(sb, ["run", "--model", "scripted/echo", "another session"]);
    expect(third.code).toBe(0);
    expect(list().map((s) => s.turns)).toEqual([1, 2]);
    expect(list(["--limit", "1"])).toHaveLength(1);
    expect(list(["--all"])).toHaveLength(2);

    const md = oc(sb, ["export", "--md", id]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("first question");
    expect(md.stdout).toContain("ok: second question");
    const atif = oc(sb, ["export", "--atif", id]);
    expect(atif.code).toBe(0);
    expect(JSON.parse(atif.stdout)).toBeTypeOf("object");
  });

  it("migrate says the provider has none; doctor --storage asks the provider", () => {
    const m = oc(sb, ["migrate"]);
    expect(m.code).toBe(0);
    expect(m.stdout).toContain("the storage provider 'json-store' has no migrations: nothing to apply");
    expect(oc(sb, ["run", "--model", "scripted/echo", "hi"]).code).toBe(0);
    const d = oc(sb, ["doctor", "--storage"]);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain(`ok   storage ${path.join(dataDir, "json-store")}: 1 session file(s), JSON`);
    expect(d.stdout).not.toContain("oceancode.db");
    expect(d.stdout.trim().split("\n").at(-1)).toBe("DOCTOR_OK");
    // what the contract leaves optional and this store does not offer says so
    const exp = oc(sb, ["sessions", "--expiring"]);
    expect(exp.code).toBe(1);
    expect(exp.stderr).toContain("oceancode sessions --expiring: retention is not available here");
  });

  it("without the replace selection it stays disabled and the bundled store serves sessions", () => {
    globalConfig(sb, {});
    expect(oc(sb, ["run", "--model", "scripted/echo", "hi"]).code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "oceancode.db"))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "json-store"))).toBe(false);
    expect(list()).toHaveLength(1);
  });
});
