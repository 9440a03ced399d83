/**
 * Every warning prints once per run (findings #26, #32, #34), through the compiled CLI in a temp HOME:
 * a removed config key, the shell guard locked on by signed requirements, a scripted file model (no
 * warning at all), and an extension whose activate() throws (one line naming its directory).
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";
import { signRequirements } from "../kit/requirements.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-once-");
});
afterEach(() => sb.cleanup());

const oc = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(["--dir", sb.project, ...args], { env: { ...sb.env, ...env }, cwd: sb.project });
const linesWith = (text: string, needle: string) => text.split("\n").filter((l) => l.includes(needle));

describe("each warning once per run", () => {
  it("a removed config key: one line naming the file, in permissions check and in run", () => {
    const file = sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { hard_tokens: 5000 } }));
    const want = `oceancode: warning: ${file}: ignoring removed config keys: ledger.hard_tokens`;
    const check = oc(["permissions", "check", "bash", "ls"]);
    expect(check.code, check.stderr).toBe(0);
    expect(linesWith(check.stderr, "removed config keys")).toEqual([want]);
    const run = oc(["run", "-m", "scripted/echo", "hi"]);
    expect(run.code, run.stderr).toBe(0);
    expect(linesWith(run.stderr, "removed config keys")).toEqual([want]);
  });

  it("the shell guard locked on by signed requirements, disabled by the project: one line", () => {
    const project = sb.write(".oceancode/oceancode.json", JSON.stringify({ extensions: { disabled: ["shell-guard"] } }));
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ extensions: { disabled: ["shell-guard"] } }), "home");
    const key = signRequirements(sb, { extensions: { locked: ["shell-guard"] } });
    const requirements = path.join(path.dirname(sb.env.OC_MANAGED_CONFIG!), "requirements.json");
    for (const args of [["permissions", "check", "bash", "rm -rf /"], ["run", "-m", "scripted/echo", "hi"]]) {
      const r = oc(args, { OC_REQUIREMENTS_PUBKEY: key });
      expect(r.code, r.stderr).toBe(0);
      expect(linesWith(r.stderr, "locked on")).toEqual([
        `oceancode: warning: extension 'shell-guard' is locked on by ${requirements}; ignoring the disable in project config (${project})`,
      ]);
    }
  });

  it("a scripted/<file>.json model is a documented feature: no unknown-model warning, in either format", () => {
    sb.write("s.json", JSON.stringify({ steps: [{ text: "one" }, { text: "two" }] }));
    const text = oc(["run", "-m", "scripted/s.json", "go"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe("one\n");
    expect(text.stderr).toMatch(/^session: ses_\w+\n$/);
    const json = oc(["run", "--format", "json", "-c", "again"]);
    expect(json.code, json.stderr).toBe(0);
    const notices = json.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string }).filter((e) => e.type === "notice");
    expect(notices).toEqual([]);
  });

  it("an extension whose activate() throws: one error line naming its directory; the run goes on", () => {
    const dir = path.join(sb.home, ".oceancode", "extensions", "thrower");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ id: "thrower", version: "1.0.0", kernel: "^0.1.0", main: "index.js", activation: ["onSession"] }));
    fs.writeFileSync(path.join(dir, "index.js"), 'export default { activate() { throw new Error("boom"); } };\n');
    const r = oc(["run", "-m", "scripted/echo", "hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("ok: hi\n");
    expect(linesWith(r.stderr, "thrower")).toEqual([
      `oceancode: error: OC_ERR_ACTIVATION_FAILED: extension 'thrower' (${dir}) failed to activate and was disabled: boom`,
    ]);
  });
});
