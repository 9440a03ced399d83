/**
 * examples/plugins works as its README says: the directory marketplace registers, `hello` installs
 * from it and validates, its skill and command show up as hello:<name>, and its hook is held until
 * `plugin trust hello`, then loaded.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { plugin } from "./fixtures.js";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-plugins-example-");
});
afterAll(() => sb.cleanup());

const EXAMPLE = path.join(REPO_ROOT, "examples", "plugins");

describe("examples/plugins", () => {
  it("registers, installs, validates; skills as hello:<name>; the hook is held until trusted", () => {
    expect(plugin(sb, "marketplace", "add", EXAMPLE).stdout).toBe(`added marketplace oceancode-examples (directory, 1 plugins) ${EXAMPLE}\n`);
    const inst = plugin(sb, "install", "hello");
    expect(inst.code, inst.stderr).toBe(0);
    expect(inst.stdout).toContain("installed hello@oceancode-examples 1.0.0 enabled untrusted");
    expect(plugin(sb, "validate", "hello").stdout).toContain("VALID hello ");
    const inspect = runCli(["inspect", "--json"], { cwd: sb.project, env: sb.env });
    const values = (JSON.parse(inspect.stdout) as Array<{ kind: string; value: string }>).filter((r) => r.kind === "skill" || r.kind === "command").map((r) => `${r.kind} ${r.value}`);
    expect(values).toEqual(expect.arrayContaining(["skill hello:greet", "command hello:standup"]));
    const held = runCli(["hooks", "list"], { cwd: sb.project, env: sb.env });
    expect(held.stdout).toMatch(/hooks\/hooks\.json {2}held: untrusted {2}plugin hello/);
    expect(plugin(sb, "trust", "hello").code).toBe(0);
    const loaded = runCli(["hooks", "list"], { cwd: sb.project, env: sb.env });
    expect(loaded.stdout).toMatch(/hooks\/hooks\.json {2}loaded {2}plugin hello/);

    // trusted, its PostToolUse hook runs: `${CLAUDE_PLUGIN_ROOT}/hooks/log-edit.sh` finds the installed copy
    sb.write("script.json", JSON.stringify({ steps: [{ text: "writing", tool_calls: [{ name: "write", input: { file_path: "notes.txt", content: "hi\n" } }] }, { text: "done" }] }));
    const run = runCli(["--dir", sb.project, "run", "--auto", "--model", "scripted/script.json", "write a note"], { cwd: sb.project, env: sb.env });
    expect(run.code, run.stderr).toBe(0);
    const log = path.join(sb.home, ".hello-plugin-edits.log");
    expect(fs.existsSync(log), run.stderr).toBe(true);
    expect(fs.readFileSync(log, "utf8")).toContain("notes.txt");
  });
});
