/**
 * "Always" saves the exact rule it shows, and a narrow one (smaller-findings #16): answering always to
 * `git push origin main` saves `bash git push origin main allow`, never `bash git push * allow`.
 * The shown rule is checked through `permissions check`, the saved one through the real pager in tmux.
 */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { CLI, makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, startPty, type Pty } from "../../../test/kit/pty.js";

let sb: Sandbox | undefined;
let t: Pty | undefined;
afterEach(() => {
  t?.close();
  sb?.cleanup();
  t = undefined;
  sb = undefined;
});

async function alwaysOf(s: Sandbox, command: string): Promise<string | undefined> {
  const r = await runCliAsync(["--dir", s.project, "permissions", "check", "bash", command], { env: s.env });
  expect(r.code, r.stderr).toBe(0);
  return /^always: (.*)$/m.exec(r.stdout)?.[1];
}

describe("the rule always shows", () => {
  it("is the asking segment exactly as written; none for a guard ask or a command a pattern cannot name exactly", async () => {
    sb = makeSandbox();
    const s = sb;
    s.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
    const cases: Array<[string, string | undefined]> = [
      ["git push origin main", "bash git push origin main allow"],
      ["git status && npm test", "bash npm test allow"],
      // wrappers stay in the rule: allowing `npm test` must not allow `sudo npm test`
      ["sudo npm test", "bash sudo npm test allow"],
      ["rm *.log", undefined],
      ["rm -rf ~", undefined],
      ["npm test && rm -rf ~", undefined],
    ];
    const got = await Promise.all(cases.map(([c]) => alwaysOf(s, c)));
    expect(got).toEqual(cases.map(([, want]) => want));
  });
});

describe.runIf(hasTmux())("answering always in the pager", () => {
  it("saves exactly the shown rule, says so, and the next run allows that command and nothing wider", async () => {
    sb = makeSandbox();
    const s = sb;
    // a repository with no remote: the push fails harmlessly whatever is allowed
    expect(spawnSync("git", ["init", "-q", s.project]).status).toBe(0);
    const config = path.join(s.project, ".oceancode", "oceancode.json");
    s.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
    s.write("script.json", JSON.stringify({ steps: [{ text: "pushing", tool_calls: [{ name: "bash", input: { command: "git push origin main" } }] }, { text: "pushed" }] }));
    t = startPty({ args: [CLI, "--dir", s.project], env: { ...s.env, OC_MODEL: "scripted/script.json" }, cwd: s.project, cols: 120, rows: 30 });
    await t.waitFor("❯");
    t.send("push it");
    await new Promise((r) => setTimeout(r, 120));
    t.key("Enter");
    await t.waitFor(/Allow bash\?[\s\S]*a always/);
    t.send("a");
    await t.waitFor("pushed");
    await t.waitFor('saved rule "bash git push origin main allow"');
    const saved = JSON.parse(fs.readFileSync(config, "utf8")) as { permission: string[] };
    expect(saved.permission).toEqual(["bash * ask", "bash git push origin main allow"]);
    t.close();
    t = undefined;

    // headless, no --auto: the saved rule allows the exact command; a wider push still asks (and is rejected)
    s.write("s2.json", JSON.stringify({ steps: [{ tool_calls: [{ name: "bash", input: { command: "git push origin main" } }] }, { tool_calls: [{ name: "bash", input: { command: "git push --mirror origin" } }] }, { text: "done" }] }));
    const r = runCli(["--dir", s.project, "run", "--model", "scripted/s2.json", "go"], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    const asks = r.stderr.split("\n").filter((l) => l.includes("asks ("));
    expect(asks).toEqual([expect.stringContaining("git push --mirror origin")]);
  });
});
