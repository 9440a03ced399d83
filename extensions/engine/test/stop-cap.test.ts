/**
 * The engine bounds Stop continuations itself (architecture rule 15): a third-party extension whose
 * engine.stop tap always continues, installed in a temp HOME and driven by the real CLI, gets exactly
 * engine.max_stop_continuations (default 8) continuations per prompt — across the fresh turns a step cap
 * opens — then the turn settles with exit 0 and a note row saying why.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { parseEvents } from "../../../test/kit/stored.js";

const RUNAWAY = `export default {
  activate(ctx) {
    const engine = ctx.services.get("engine");
    engine.hooks.stop.tap({ name: "runaway" }, () => ({ continue: true, reason: "keep going", by: "runaway" }));
  },
};
`;

describe("engine.max_stop_continuations", () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox("oc-stopcap-");
    sb.write(
      ".oceancode/extensions/runaway/manifest.json",
      JSON.stringify({ id: "runaway", version: "1.0.0", kernel: "^0.1.0", description: "a stop tap that always continues", main: "index.js", requires: ["engine"], activation: ["onSession"] }),
      "home",
    );
    sb.write(".oceancode/extensions/runaway/index.js", RUNAWAY, "home");
  });
  afterEach(() => sb.cleanup());

  const run = (env: NodeJS.ProcessEnv = {}, ...extra: string[]) =>
    runCli(["--home", sb.home, "--dir", sb.project, "run", "--model", "scripted/echo", "--format", "json", ...extra, "hi"], {
      env: { ...sb.env, ...env },
      cwd: sb.project,
      timeoutMs: 30_000,
    });
  const config = (engine: Record<string, unknown>) => sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ engine }), "home");
  const exportMd = (id: string) => runCli(["--home", sb.home, "--dir", sb.project, "export", "--md", id], { env: sb.env, cwd: sb.project });

  it("stops a tap that always continues after exactly 8 continuations, exit 0, with a note row", () => {
    const r = run();
    expect(r.code, r.stderr).toBe(0);
    const ev = parseEvents(r.stdout);
    expect(ev.filter((e) => e.type === "step_end")).toHaveLength(9);
    expect(ev.filter((e) => e.type === "notice" && e.text?.startsWith("continuing: runaway"))).toHaveLength(8);
    expect(ev.some((e) => e.type === "notice" && /stop continuation cap \(8\) reached/.test(e.text ?? ""))).toBe(true);
    expect(ev.filter((e) => e.type === "turn_end").map((e) => e.reason)).toEqual(["end_turn"]);
    const id = ev.find((e) => e.type === "session")!.sessionId!;
    const md = exportMd(id);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout.match(/\[continued by runaway\]/g)).toHaveLength(8);
    expect(md.stdout).toContain("[stop continuation cap 8 reached: runaway asked to continue (keep going); the turn settles]");
  });

  it("engine.max_stop_continuations = 3 gives 3", () => {
    config({ max_stop_continuations: 3 });
    const r = run();
    expect(r.code, r.stderr).toBe(0);
    const ev = parseEvents(r.stdout);
    expect(ev.filter((e) => e.type === "step_end")).toHaveLength(4);
    expect(ev.filter((e) => e.type === "notice" && e.text?.startsWith("continuing: runaway"))).toHaveLength(3);
    expect(ev.some((e) => e.type === "notice" && /stop continuation cap \(3\) reached/.test(e.text ?? ""))).toBe(true);
  });

  it("the cap holds across the fresh turns a step cap opens (OC_MAX_STEPS=2)", () => {
    const r = run({ OC_MAX_STEPS: "2" });
    expect(r.code, r.stderr).toBe(0);
    const ev = parseEvents(r.stdout);
    expect(ev.filter((e) => e.type === "step_end")).toHaveLength(9);
    expect(ev.filter((e) => e.type === "notice" && e.text?.startsWith("continuing: runaway"))).toHaveLength(8);
    const ends = ev.filter((e) => e.type === "turn_end").map((e) => e.reason);
    expect(ends).toEqual(["step_cap", "step_cap", "step_cap", "step_cap", "end_turn"]);
  });

  it("engine.max_steps sets the step cap per root turn; OC_MAX_STEPS and --max-steps override it", () => {
    config({ max_steps: 4 });
    const a = parseEvents(run().stdout).filter((e) => e.type === "turn_end").map((e) => e.reason);
    expect(a).toEqual(["step_cap", "step_cap", "end_turn"]); // 9 steps: 4 + 4 + 1
    const b = parseEvents(run({ OC_MAX_STEPS: "5" }).stdout).filter((e) => e.type === "turn_end").map((e) => e.reason);
    expect(b).toEqual(["step_cap", "end_turn"]);
    const c = parseEvents(run({ OC_MAX_STEPS: "5" }, "--max-steps", "100").stdout).filter((e) => e.type === "turn_end").map((e) => e.reason);
    expect(c).toEqual(["end_turn"]);
  });
});
