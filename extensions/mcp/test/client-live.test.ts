/**
 * Live switches against the fixture server: the manager's reconcile drops a server that may no longer
 * run (its tools at once, its process within ~2 s), starts one that now may, never spawns a held one;
 * LiveSwitches re-resolves only when a watched file's stamp changed; inspect rows carry the live status.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ServerEntry } from "../api.js";
import { McpManager } from "../client/manager.js";
import { LiveSwitches } from "../client/live.js";
import { inspectRows } from "../sources/inspect.js";
import { FIXTURE, alive } from "./helpers.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mcp-live-"));
const entry = (name: string, hold: ServerEntry["hold"] = "ready"): ServerEntry => ({
  name,
  qualifiedName: name,
  tier: "user",
  source: "test",
  config: { type: "stdio", command: process.execPath, args: [FIXTURE, "--name", name], env: {} },
  trusted: true,
  enabled: hold !== "disabled",
  hold,
});
const until = async (ok: () => boolean, ms = 10_000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
  return ok();
};

let managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.map((m) => m.close()));
  managers = [];
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("reconcile", () => {
  it("drops a server newly disabled (tools at once, process within ~2 s) and starts one newly ready", async () => {
    const m = new McpManager([entry("a"), entry("b", "disabled")], { env: process.env, cwd: tmp, connectTimeoutMs: 10_000 });
    managers.push(m);
    m.start();
    await m.settle(10_000);
    const pid = m.rows().find((r) => r.name === "a")!.pid!;
    expect(m.connectedTools().some((t) => t.server === "a")).toBe(true);
    expect(m.rows().map((r) => r.status)).toEqual(["connected", "disabled"]);
    expect(m.reconcile([entry("a", "disabled"), entry("b")])).toBe(true);
    expect(m.connectedTools().some((t) => t.server === "a")).toBe(false);
    expect(m.rows()[0]).toMatchObject({ name: "a", status: "disabled", enabled: false, tier: "user", source: "test" });
    expect(await until(() => !alive(pid), 3000)).toBe(true);
    expect(await until(() => m.rows()[1]!.status === "connected")).toBe(true);
    expect(m.takeArrived()).toBe(true);
    expect(m.takeArrived()).toBe(false);
    // nothing changed: nothing restarts
    expect(m.reconcile([entry("a", "disabled"), entry("b")])).toBe(false);
  }, 30_000);

  it("before the servers started, reconcile only swaps the entries (a held server is never spawned)", () => {
    const m = new McpManager([entry("a", "untrusted")], { env: process.env, cwd: tmp });
    managers.push(m);
    expect(m.reconcile([entry("a")])).toBe(false);
    expect(m.connections.size).toBe(0);
    expect(m.rows()[0]!.status).toBe("connecting");
  });
});

describe("LiveSwitches", () => {
  it("re-resolves only when a watched file changed; the generation moves with each applied change", () => {
    const file = path.join(tmp, "trust.json");
    let resolves = 0;
    let off = false;
    const m = new McpManager([entry("a", "disabled")], { env: process.env, cwd: tmp });
    managers.push(m);
    const live = new LiveSwitches({ files: () => [file], resolve: () => (resolves++, [entry("a", "disabled")]), everythingOff: () => off, manager: m });
    live.baseline();
    expect(live.check()).toBe(false);
    expect(resolves).toBe(0);
    expect(live.everythingOff()).toBe(false);
    off = true;
    fs.writeFileSync(file, "{}");
    expect(live.check()).toBe(true);
    expect(resolves).toBe(1);
    expect(live.everythingOff()).toBe(true);
    expect(live.generation).toBe(1);
    expect(live.check()).toBe(false);
  });
});

describe("inspect rows", () => {
  it("keep the config state and add the live status when the manager runs", () => {
    const e = entry("a");
    expect(inspectRows([e])[0]).toEqual({ kind: "mcp", id: "a", layer: "user", source: "test", state: "ready" });
    expect(inspectRows([e], [{ name: "a", qualifiedName: "a", status: "connected", tools: 4, transport: "stdio" }])[0]).toMatchObject({ state: "ready", value: { status: "connected", tools: 4 } });
  });
});
