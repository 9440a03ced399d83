/**
 * Engine and kernel guarantees no extension can break (architecture rule 15), through the real CLI with
 * a third-party extension in a temp HOME: an activate() that never settles, a stop or afterTurn tap that
 * never settles, and a throwing tap. Each run ends, and stderr has the coded error line naming the extension.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { parseEvents } from "../../../test/kit/stored.js";

describe("a misbehaving third-party extension cannot hang a run", () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox("oc-guarantee-");
  });
  afterEach(() => sb.cleanup());

  const install = (id: string, body: string) => {
    sb.write(
      `.oceancode/extensions/${id}/manifest.json`,
      JSON.stringify({ id, version: "1.0.0", kernel: "^0.1.0", description: "misbehaves on purpose", main: "index.js", requires: ["engine"], activation: ["onSession"] }),
      "home",
    );
    sb.write(`.oceancode/extensions/${id}/index.js`, `export default {\n  activate(ctx) {\n    const engine = ctx.services.get("engine");\n    ${body}\n  },\n};\n`, "home");
  };
  const run = (env: NodeJS.ProcessEnv = {}) => {
    const t0 = Date.now();
    const r = runCli(["--home", sb.home, "--dir", sb.project, "run", "--model", "scripted/echo", "--format", "json", "hi"], {
      env: { ...sb.env, ...env },
      cwd: sb.project,
      timeoutMs: 30_000,
    });
    return { ...r, ms: Date.now() - t0, events: r.code === 0 ? parseEvents(r.stdout) : [] };
  };
  const codedLines = (stderr: string, code: string) => stderr.split("\n").filter((l) => l.includes(code));

  it("an activate() that never resolves: the extension fails with OC_ERR_ACTIVATION_TIMEOUT and the run goes on", () => {
    install("hang", `engine.hooks.stop.tap({ name: "hang" }, () => ({ continue: true, reason: "never", by: "hang" }));\n    return new Promise(() => {});`);
    const r = run({ OC_ACTIVATION_TIMEOUT_MS: "400" });
    expect(r.code, r.stderr).toBe(0);
    const lines = codedLines(r.stderr, "OC_ERR_ACTIVATION_TIMEOUT");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/OC_ERR_ACTIVATION_TIMEOUT: extension 'hang' \(.*\) did not finish activating within 400 ms and was disabled/);
    expect(r.events.find((e) => e.type === "turn_end")?.text).toBe("ok: hi");
    // the stop tap it made before hanging is out with it: nothing continued the turn
    expect(r.events.filter((e) => e.type === "step_end")).toHaveLength(1);
  });

  it("a stop tap that never settles: skipped after OC_TAP_TIMEOUT_MS with OC_ERR_TAP_TIMEOUT; the turn settles", () => {
    install("stuck", `engine.hooks.stop.tap({ name: "stuck" }, () => new Promise(() => {}));`);
    const r = run({ OC_TAP_TIMEOUT_MS: "300" });
    expect(r.code, r.stderr).toBe(0);
    expect(codedLines(r.stderr, "OC_ERR_TAP_TIMEOUT")).toEqual([
      "oceancode: error: OC_ERR_TAP_TIMEOUT: extension 'stuck' failed in hook 'engine.stop': its tap did not settle within 300 ms and was skipped",
    ]);
    expect(r.events.filter((e) => e.type === "turn_end").map((e) => e.reason)).toEqual(["end_turn"]);
  });

  it("an afterTurn tap that never settles: the run still ends", () => {
    install("stuck", `engine.hooks.afterTurn.tap({ name: "stuck" }, () => new Promise(() => {}));`);
    const r = run({ OC_TAP_TIMEOUT_MS: "300" });
    expect(r.code, r.stderr).toBe(0);
    expect(codedLines(r.stderr, "OC_ERR_TAP_TIMEOUT")).toEqual([
      "oceancode: error: OC_ERR_TAP_TIMEOUT: extension 'stuck' failed in hook 'engine.afterTurn': its tap did not settle within 300 ms and was skipped",
    ]);
    expect(r.events.some((e) => e.type === "turn_end")).toBe(true);
  });

  it("a throwing tap: OC_ERR_TAP_FAILED, shown once per run though it throws every step", () => {
    install("thrower", `engine.hooks.afterStep.tap({ name: "thrower" }, () => { throw new Error("kaput"); });\n    engine.hooks.stop.tap({ name: "thrower" }, (s) => (s.continuations < 2 ? { continue: true, reason: "again", by: "thrower" } : undefined));`);
    const r = run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.events.filter((e) => e.type === "step_end")).toHaveLength(3);
    expect(codedLines(r.stderr, "OC_ERR_TAP_FAILED")).toEqual(["oceancode: error: OC_ERR_TAP_FAILED: extension 'thrower' failed in hook 'engine.afterStep': kaput"]);
  });
});
