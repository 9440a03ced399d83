/**
 * Point 1's labels, in process (the real points/permission.ts behind a stand-in permissions service and
 * engine): a person's answer to an advised ask appends a label row joined by state hash (allow for
 * once/always, deny for reject); a session with the headless mark (oceancode run) writes none.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ExtensionContext } from "../../../kernel/api.js";
import type { ToolCallContext } from "../../engine/api.js";
import type { PermissionAdvisor } from "../../permissions/api.js";
import { resolveJevConfig } from "../config.js";
import { createLog } from "../log.js";
import { createService } from "../service.js";
import { install } from "../points/permission.js";
import { startFakeSystemOne, type FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { DESTRUCTIVE } from "./helpers.js";

let fake: FakeSystemOne | undefined;
let dir: string | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

type Answered = (p: { ctx: ToolCallContext; answer: "once" | "always" | "reject" }) => void;

async function rig(mode: "act" | "shadow") {
  fake = await startFakeSystemOne();
  fake.answer(() => DESTRUCTIVE as never);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-jev-labels-"));
  const cfg = resolveJevConfig(
    [
      { name: "global", value: { jev: { enabled: true } } },
      { name: "project", value: { jev: { enabled: true, permissions: mode } } },
    ],
    { OC_JEV_ENDPOINT: fake.url },
  );
  const jev = createService(cfg, createLog((s) => path.join(dir!, s), () => undefined));
  let advisor: PermissionAdvisor | undefined;
  let answered: Answered | undefined;
  const ctx = {
    paths: { project: dir, home: os.homedir() },
    services: {
      tryGet: (n: string) =>
        n === "permissions" ? { addAdvisor: (a: PermissionAdvisor) => (advisor = a) } : n === "engine" ? { hooks: { permissionAnswered: { tap: (_: unknown, f: Answered) => (answered = f) } } } : undefined,
    },
  } as unknown as ExtensionContext;
  install(ctx, jev);
  const call = (id: string, headless?: boolean) =>
    ({
      call: { id, name: "bash", input: { command: `echo ${id} > f.txt` } },
      cwd: dir,
      signal: new AbortController().signal,
      session: { info: { id: "ses_l", cwd: dir, overrides: {} }, rows: [{ role: "user", text: "go" }], ext: new Map(), ...(headless ? { driver: { headless: true, auto: false } } : {}) },
    }) as unknown as ToolCallContext;
  const decision = { action: "ask" as const, reason: "bash * ask", rule: "bash * ask", layer: "project", residual: true };
  const rows = () => fs.readFileSync(path.join(dir!, "ses_l", "jev-decisions.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  return { advisor: advisor!, answered: () => answered!, call, decision, rows };
}

describe("jev point 1 labels", () => {
  it("a person's answers to advised asks are labels; a headless session's are not", async () => {
    const r = await rig("act");
    const a = r.call("c1");
    expect(await r.advisor(a, r.decision)).toBeUndefined(); // destructive, not headless --auto: the ask proceeds
    r.answered()({ ctx: a, answer: "reject" });
    const b = r.call("c2");
    await r.advisor(b, r.decision);
    r.answered()({ ctx: b, answer: "always" });
    const h = r.call("c3", true);
    await r.advisor(h, r.decision);
    r.answered()({ ctx: h, answer: "once" });
    // an ask nobody advised (e.g. a guard ask) gets no label
    r.answered()({ ctx: r.call("c4"), answer: "once" });
    const rows = r.rows();
    const decisions = rows.filter((x) => x.type === "decision");
    const labels = rows.filter((x) => x.type === "label");
    expect(decisions).toHaveLength(3);
    expect(labels.map((x) => [x.label, x.state_hash])).toEqual([
      ["deny", decisions[0].state_hash],
      ["allow", decisions[1].state_hash],
    ]);
  });
  it("a guard ask (residual: false) and a non-bash ask are not advised", async () => {
    const r = await rig("act");
    expect(await r.advisor(r.call("g"), { ...r.decision, residual: false })).toBeUndefined();
    expect(fake!.requests).toHaveLength(0);
    // a command over 4,000 chars is never advised (its state would be truncated): a skip row, no request
    const long = r.call("long");
    (long.call.input as { command: string }).command = `echo ${"x".repeat(4100)}`;
    expect(await r.advisor(long, r.decision)).toBeUndefined();
    expect(fake!.requests).toHaveLength(0);
    expect(r.rows()).toEqual([expect.objectContaining({ outcome: "fallback", answers: expect.stringContaining("over 4000 chars") })]);
  });
});
