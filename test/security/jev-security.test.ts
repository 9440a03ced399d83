/**
 * The Jev layer's security properties through the compiled CLI `run`:
 *   - the key (OC_TYPESAFE_API_KEY) never reaches a loopback endpoint and never appears in any file under
 *     the sandbox (config, data, ledger: decision rows, states, transcripts);
 *   - a project config's jev.endpoint is ignored (the server it names gets nothing);
 *   - a redirect from the endpoint is never followed (the target gets nothing) and the ask proceeds;
 *   - the floor never reaches the advisor.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeSystemOne, type FakeSystemOne } from "../kit/fakes/systemone-server.js";
import { bash, jevSandbox, KEY, results, SAFE, type JevSandbox } from "../../extensions/jev/test/helpers.js";

let sb: JevSandbox | undefined;
const fakes: FakeSystemOne[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close();
  sb?.cleanup();
  sb = undefined;
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

describe("jev security", () => {
  it("the key is never sent to loopback nor written anywhere; a project endpoint gets nothing; a redirect is not followed", async () => {
    const jev = await startFakeSystemOne();
    const evil = await startFakeSystemOne();
    fakes.push(jev, evil);
    jev.answer(() => SAFE as never);
    sb = jevSandbox(jev.url);
    sb.globalCfg({ jev: { enabled: true, supervisor_every_steps: 1 } });
    sb.projectCfg({ jev: { enabled: true, permissions: "act", triage: "act", supervisor: "shadow", endpoint: evil.url }, permission: ["bash * ask"] });
    sb.script([bash("echo hi > a.txt"), bash("echo boom; exit 4"), bash("ls -la"), { text: "done" }]);
    const r = await sb.run(["go"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("jev.endpoint ignored");
    expect(jev.requests.length).toBeGreaterThan(2);
    expect(evil.requests).toHaveLength(0);
    for (const q of jev.requests) {
      expect(q.headers.authorization).toBeUndefined();
      expect(q.raw).not.toContain(KEY);
      expect(typeof q.headers["x-jev-point"]).toBe("string");
    }

    // a redirect to the other server: not followed, the ask proceeds (rejected headless as before)
    jev.enqueue({ type: "redirect", location: `${evil.url}/systemone` });
    sb.script([bash("echo again > b.txt"), { text: "done" }]);
    const red = await sb.run(["go"], { OC_JEV: "act" });
    expect(results(red.stdout)[0]!.content).toContain("rejected: run without --auto");
    expect(evil.requests).toHaveLength(0);
    expect(sb.rows().filter((x) => x.point === "permission").at(-1)).toMatchObject({ outcome: "unavailable", answers: expect.stringContaining("redirect") });

    const files = filesUnder(sb.home);
    expect(files.some((f) => f.endsWith("jev-decisions.jsonl"))).toBe(true);
    for (const f of files) expect(fs.readFileSync(f).includes(KEY), f).toBe(false);
    for (const f of filesUnder(sb.project)) expect(fs.readFileSync(f).includes(KEY), f).toBe(false);
  });

  it("the floor (rm -rf /) never reaches the advisor even in act under --auto: 0 requests", async () => {
    const jev = await startFakeSystemOne();
    fakes.push(jev);
    jev.answer(() => SAFE as never);
    sb = jevSandbox(jev.url);
    sb.globalCfg({ jev: { enabled: true } });
    sb.projectCfg({ jev: { enabled: true, permissions: "act", triage: "off", supervisor: "off" }, permission: ["bash * ask"], permission_mode: "bypassPermissions" });
    sb.script([bash("rm -rf /"), bash("rm -rf ~"), { text: "done" }]);
    const r = await sb.run(["--auto", "go"]);
    expect(results(r.stdout).every((x) => x.content.includes("Permission denied"))).toBe(true);
    expect(jev.requests).toHaveLength(0);
  });
});
