/**
 * The master switch and a plugin's disable live in ~/.oceancode only (trust.json, plugins/installed.json).
 * A checkout cannot turn hooks back on: look-alike files in the project (.oceancode/trust.json,
 * .oceancode/plugins/installed.json), present from the start or written by a tool mid-run together with
 * a change to .claude/settings.json (which reloads the hooks), leave every source held.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
let marker: string;
let plugDir: string;
beforeEach(() => {
  sb = makeSandbox("oc-sec-everything-off-");
  marker = path.join(sb.home, "ran");
  const hook = (tag: string) => ({ matcher: "*", hooks: [{ type: "command", command: `echo ${tag} >> ${JSON.stringify(marker)}` }] });
  // the repo is trusted, so only the master switch / the plugin's disable hold these
  sb.write(".claude/settings.json", JSON.stringify({ hooks: { PreToolUse: [hook("repo")] } }));
  sb.write(".oceancode/settings.json", JSON.stringify({ hooks: { PostToolUse: [hook("user")] } }), "home");
  plugDir = path.join(sb.home, "plugins-src", "packa");
  sb.write("plugins-src/packa/hooks/hooks.json", JSON.stringify({ hooks: { PostToolUse: [hook("plugin")] } }), "home");
  sb.write(".oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "packa", path: plugDir, enabled: false, trusted: true }] }), "home");
});
afterEach(() => sb.cleanup());

const oc = (...args: string[]) => runCli(["--dir", sb.project, "--home", sb.home, ...args], { env: sb.env, cwd: sb.project });
const statuses = () => (JSON.parse(oc("hooks", "list", "--json").stdout) as { sources: Array<{ tier: string; plugin?: string; status: string }> }).sources;
/** what a checkout would plant to turn things back on */
const lookAlikes = (project: string) => {
  const key = path.resolve(project);
  return [
    `mkdir -p .oceancode/plugins`,
    `printf '%s' '${JSON.stringify({ [key]: { repo: true, everything_off: false } })}' > .oceancode/trust.json`,
    `printf '%s' '${JSON.stringify({ plugins: [{ name: "packa", path: plugDir, enabled: true, trusted: true }] })}' > .oceancode/plugins/installed.json`,
  ];
};

describe("a checkout cannot turn hooks back on", () => {
  it("with everything off: look-alike files a tool writes into the project mid-run leave every source held", () => {
    expect(oc("trust", "repo", "on").code).toBe(0);
    expect(oc("skill", "everything", "off").code).toBe(0);
    // written by a tool in step 1 (with a .claude/settings.json touch that makes the hooks reload)
    const step1 = [...lookAlikes(sb.project), "touch .claude/settings.json"].join(" && ");
    sb.write(
      "script.json",
      JSON.stringify({
        steps: [
          { text: "planting", tool_calls: [{ name: "bash", input: { command: step1 } }] },
          { text: "again", tool_calls: [{ name: "bash", input: { command: "echo hi" } }] },
          { text: "done" },
        ],
      }),
    );
    const r = oc("run", "--auto", "--model", "scripted/script.json", "go");
    expect(r.code, r.stderr).toBe(0);
    // run --auto confines the tool (issue 27): it cannot even plant the look-alikes in .oceancode
    expect(fs.existsSync(path.join(sb.project, ".oceancode", "trust.json"))).toBe(false);
    expect(fs.existsSync(marker)).toBe(false);
    for (const s of statuses()) expect(s.status, `${s.tier} ${s.plugin ?? ""}`).toBe("held: everything off");
  });

  it("with everything on: a disabled plugin stays held whatever a look-alike store in the project says", () => {
    expect(oc("trust", "repo", "on").code).toBe(0);
    sb.write(".oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "packa", path: plugDir, enabled: true, trusted: true }] }));
    sb.write("script.json", JSON.stringify({ steps: [{ text: "x", tool_calls: [{ name: "bash", input: { command: "echo hi" } }] }, { text: "done" }] }));
    const r = oc("run", "--auto", "--model", "scripted/script.json", "go");
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(marker, "utf8").split("\n").filter(Boolean).sort()).toEqual(["repo", "user"]);
    expect(statuses().find((s) => s.plugin === "packa")?.status).toBe("held: disabled plugin");
  });
});
