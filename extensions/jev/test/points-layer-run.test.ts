/**
 * Points 2-6 as the layer installs them (the real jev service: consent in both configs, the fake System One
 * on loopback), through the compiled CLI `run`: a long bash output is put to point 2 with the block
 * labels; in act the kept block is the one Jev chose, in shadow the result is today's; every decision is
 * a row in the ledger's jev-decisions.jsonl with the x-jev-point header on the wire.
 */
import { describe, expect, it } from "vitest";
import type { FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { bash, results, type JevSandbox } from "./helpers.js";
import { jevTests } from "./points-helpers.js";

let fake: FakeSystemOne | undefined;
/** tool results with the session id (in the kept-output path) made alike */
const same = (stdout: string) => results(stdout).map((r) => ({ ...r, content: r.content.replace(/ses_[a-z0-9]+/g, "ses_X") }));
let sb: JevSandbox | undefined;
const { jevSandbox, startFakeSystemOne } = jevTests();

// 40,000 numbered lines: far past the tool output cap, so the model sees a cut and point 2 is asked
const LONG = "seq 1 40000 | sed 's/^/line /'";

async function setup(output: "shadow" | "act") {
  fake = await startFakeSystemOne();
  // choose the last block offered
  fake.answer((req) => {
    const opts = (req.body.questions?.block?.options ?? []) as string[];
    return { block: { type: "choice", choice: opts[opts.length - 1]!, confidence: 0.95 } };
  });
  sb = jevSandbox(fake.url);
  sb.globalCfg({ jev: { enabled: true } });
  sb.projectCfg({ jev: { enabled: true, permissions: "off", triage: "off", supervisor: "off", recall: "off", tools: "off", skills: "off", output } });
  sb.script([bash(LONG), { text: "done" }]);
  return sb;
}

describe("jev points 2-6 installed by the layer", () => {
  it("output in act keeps the block Jev chose (the last lines), recorded as acted; the request names its point", async () => {
    const s = await setup("act");
    const r = await s.run(["go"]);
    expect(r.code, r.stderr).toBe(0);
    const [res] = results(r.stdout);
    expect(res!.content).toContain("line 40000");
    expect(fake!.requests).toHaveLength(1);
    expect(fake!.requests[0]!.headers["x-jev-point"]).toBe("output");
    const rows = s.rows().filter((x) => x.point === "output" && x.type !== "label");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mode: "act", outcome: "acted" });
    // not today's head + tail: the layer off gives another result
    const off = await s.run(["go"], { OC_JEV: "off" });
    expect(same(r.stdout)).not.toEqual(same(off.stdout));
  });

  it("output in shadow changes nothing: the same tool result as with the layer off, and a shadow row", async () => {
    const s = await setup("shadow");
    const shadow = await s.run(["go"]);
    const off = await s.run(["go"], { OC_JEV: "off" });
    expect(same(shadow.stdout)).toEqual(same(off.stdout));
    const rows = s.rows().filter((x) => x.point === "output");
    expect(rows.map((x) => x.outcome)).toEqual(["shadow"]);
  });
});
