/**
 * A user-tier replacement for shell-guard whose service does not implement ShellGuardService: every bash
 * call is denied (authorizeToolCall fails closed) with a message naming the contract, and nothing runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { makeVictim, runScript, bashStep, survivors, type Victim } from "./headless-helpers.js";

let v: Victim | undefined;
afterEach(() => v?.sb.cleanup());

describe("a replacement shell-guard without the contract's shape", () => {
  it("denies bash with a message naming ShellGuardService, and the command never runs", () => {
    v = makeVictim();
    const dir = path.join(v.sb.home, ".oceancode", "extensions", "my-guard");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "manifest.json"),
      JSON.stringify({ id: "my-guard", version: "1.0.0", kernel: "^0.1.0", main: "index.js", provides: ["shell-guard"], replaces: "shell-guard", activation: ["onSession"] }),
    );
    fs.writeFileSync(path.join(dir, "index.js"), `export default { activate(ctx) { ctx.provide("shell-guard", { check() { return "ok"; } }); } };\n`);
    const made = path.join(v.root, "made.txt");
    const r = runScript(v.sb, [bashStep(`touch ${made}`), { text: "done" }], { extensions: { replace: { "shell-guard": "my-guard" } } }, ["--auto"]);
    expect(r.stderr).toContain("the safety extension 'shell-guard' is replaced by");
    expect(r.results[0]!.isError).toBe(true);
    expect(r.results[0]!.content).toContain("a replacement must implement ShellGuardService from oceancode/api/shell-guard");
    expect(r.results[0]!.content).not.toContain("is not a function");
    expect(fs.existsSync(made)).toBe(false);
    expect(survivors(v)).toEqual(v.markers);
  });
});
