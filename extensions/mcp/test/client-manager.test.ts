/**
 * The manager against real MCP servers (the fixture server, the SDK's own Server class): parallel start,
 * statuses (connected / failed with reason / needs-auth / holds), calls, a crash mid-call and its restart,
 * a bounded close that kills the process group, Streamable HTTP, and doctor.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ServerEntry } from "../api.js";
import { doctor } from "../client/doctor.js";
import { McpManager } from "../client/manager.js";
import { liveGroupCount } from "../client/groups.js";
import { FIXTURE, alive } from "./helpers.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-mcp-mgr-"));
const signal = new AbortController().signal;

function entry(name: string, config: ServerEntry["config"], hold: ServerEntry["hold"] = "ready"): ServerEntry {
  return { name, qualifiedName: name, tier: "user", source: "test", config, trusted: true, enabled: true, hold };
}
const stdio = (name: string, args: string[] = [], env: Record<string, string> = {}) => entry(name, { type: "stdio", command: process.execPath, args: [FIXTURE, "--name", name, ...args], env });
/** running (a zombie no one reaped yet counts as gone) */

let managers: McpManager[] = [];
const make = (entries: ServerEntry[], opts: Partial<ConstructorParameters<typeof McpManager>[1]> = {}) => {
  const m = new McpManager(entries, { env: process.env, cwd: tmp, connectTimeoutMs: 10_000, ...opts });
  managers.push(m);
  return m;
};
afterEach(async () => {
  await Promise.all(managers.map((m) => m.close()));
  managers = [];
});
const httpServers: ChildProcess[] = [];
afterAll(() => {
  for (const c of httpServers) c.kill("SIGKILL");
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function httpFixture(extra: string[] = [], mode: "--http" | "--sse" = "--http"): Promise<string> {
  const urlFile = path.join(tmp, `url-${Math.random()}`);
  const child = spawn(process.execPath, [FIXTURE, mode, urlFile, ...extra], { stdio: "ignore" });
  httpServers.push(child);
  for (let i = 0; i < 200 && !fs.existsSync(urlFile); i++) await new Promise((r) => setTimeout(r, 25));
  return fs.readFileSync(urlFile, "utf8");
}

describe("McpManager", () => {
  it("starts ready servers in parallel; held ones read their hold; a missing command fails with a reason", async () => {
    const m = make([stdio("a"), stdio("b"), entry("gone", { type: "stdio", command: "/nonexistent/bin", args: [], env: {} }), { ...stdio("held"), hold: "untrusted", reason: "untrusted: trust it" }]);
    m.start();
    await m.settle(10_000);
    const rows = Object.fromEntries(m.rows().map((r) => [r.name, r]));
    expect(rows.a!.status).toBe("connected");
    expect(rows.b!.status).toBe("connected");
    expect(rows.a!.tools).toBe(8);
    expect(rows.gone!.status).toBe("failed");
    expect(rows.gone!.reason).toMatch(/ENOENT/);
    expect(rows.held).toMatchObject({ status: "untrusted", reason: "untrusted: trust it", tools: 0 });
    expect(m.connections.has("held")).toBe(false);
    expect(await m.call("a", "add", { a: 2, b: 3 }, signal)).toEqual({ content: "sum=5" });
  });

  it("bad arguments, an unknown tool and an error result come back as tool errors", async () => {
    const m = make([stdio("a")]);
    m.start();
    await m.settle(10_000);
    const bad = await m.call("a", "add", { a: "x" }, signal);
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/a and b must be numbers/);
    const unknown = await m.call("a", "nope", {}, signal);
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toMatch(/has no tool 'nope'/);
    expect(await m.call("a", "fail", {}, signal)).toEqual({ content: "it went wrong", isError: true });
  });

  it("a server that dies mid-call: the call is an error, the server is restarted and reported", async () => {
    const reports: string[] = [];
    const m = make([stdio("c")], { backoffMs: [100, 200, 400], report: (_l, t) => reports.push(t) });
    m.start();
    await m.settle(10_000);
    const pid1 = m.rows()[0]!.pid!;
    const out = await m.call("c", "crash", {}, signal);
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/stopped during the call to 'crash'/);
    await new Promise((r) => setTimeout(r, 150));
    await m.settle(10_000);
    expect(m.rows()[0]!.status).toBe("connected");
    expect(m.rows()[0]!.pid).not.toBe(pid1);
    expect(await m.call("c", "add", { a: 1, b: 1 }, signal)).toEqual({ content: "sum=2" });
    expect(reports.join("\n")).toMatch(/MCP server "c" stopped; restarting in 0.1 s \(try 1 of 3\)/);
    expect(reports.join("\n")).toMatch(/MCP server "c" restarted/);
  });

  it("close is bounded (~2 s) and kills the process group, even when a grandchild holds the pipe", async () => {
    // sh runs the server and a sleeping grandchild that inherits stdout; sh ignores stdin EOF via the trap
    const grandPidFile = path.join(tmp, "grand.pid");
    const script = `trap '' TERM; sleep 30 & echo $! > ${grandPidFile}; exec ${process.execPath} ${FIXTURE} --name g`;
    const m = make([entry("g", { type: "stdio", command: "sh", args: ["-c", script], env: {} })]);
    m.start();
    await m.settle(10_000);
    expect(m.rows()[0]!.status).toBe("connected");
    const pid = m.rows()[0]!.pid!;
    const grand = Number(fs.readFileSync(grandPidFile, "utf8"));
    expect(alive(grand)).toBe(true);
    const t0 = Date.now();
    await m.close();
    expect(Date.now() - t0).toBeLessThan(2600);
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid)).toBe(false);
    expect(alive(grand)).toBe(false);
    expect(liveGroupCount()).toBe(0);
  });

  it("a process awaiting close stays alive until close is done (its timers keep the event loop)", async () => {
    // the compiled manager in a fresh node: nothing else keeps its loop alive while close waits for the group
    const dist = path.resolve(__dirname, "../../../dist/extensions/mcp/client/manager.js");
    const code = `
      const { McpManager } = await import(${JSON.stringify(dist)});
      const m = new McpManager([{ name: "x", qualifiedName: "x", tier: "user", source: "t", config: { type: "stdio", command: process.execPath, args: [${JSON.stringify(FIXTURE)}, "--linger"], env: {} }, trusted: true, enabled: true, hold: "ready" }], { env: process.env, cwd: "/tmp" });
      m.start(); await m.settle(10000); console.log(m.rows()[0].status);
      setTimeout(() => {}, 0);
      await m.close(); console.log("closed");`;
    const out = await new Promise<string>((resolve) => {
      const c = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
      let o = "";
      c.stdout.on("data", (d: Buffer) => (o += d.toString()));
      c.on("close", () => resolve(o));
    });
    expect(out).toBe("connected\nclosed\n");
  });

  it("a slow handshake reads connecting, then connected; settle(0) never waits", async () => {
    const m = make([stdio("slow", ["--delay-ms", "800"])]);
    m.start();
    const t0 = Date.now();
    await m.settle(0);
    // far below the 800 ms handshake (loose: a loaded machine delays any await)
    expect(Date.now() - t0).toBeLessThan(400);
    expect(m.rows()[0]!.status).toBe("connecting");
    await m.settle(10_000);
    expect(m.rows()[0]!.status).toBe("connected");
  });

  it("a connect timeout fails the server with the reason", async () => {
    const m = make([stdio("slow", ["--delay-ms", "5000"])], { connectTimeoutMs: 300 });
    m.start();
    await m.settle(5_000);
    expect(m.rows()[0]).toMatchObject({ status: "failed", reason: expect.stringMatching(/no answer within/) });
  });

  it("Streamable HTTP: connects, lists and calls; a 401 reads needs-auth", async () => {
    const url = await httpFixture();
    const url401 = await httpFixture(["--http-401"]);
    const m = make([entry("web", { type: "http", url, headers: {} }), entry("locked", { type: "http", url: url401, headers: {} })]);
    m.start();
    await m.settle(10_000);
    const rows = Object.fromEntries(m.rows().map((r) => [r.name, r]));
    expect(rows.web).toMatchObject({ status: "connected", tools: 8, transport: "http" });
    expect(rows.locked!.status, `locked: ${rows.locked!.reason ?? ""}`).toBe("needs-auth");
    expect(await m.call("web", "add", { a: 20, b: 22 }, signal)).toEqual({ content: "sum=42" });
  });

  it("SSE (the older HTTP transport): connects, lists and calls", async () => {
    const url = await httpFixture([], "--sse");
    const m = make([entry("old", { type: "sse", url, headers: {} })]);
    m.start();
    await m.settle(10_000);
    expect(m.rows()[0]).toMatchObject({ status: "connected", tools: 8, transport: "sse" });
    expect(await m.call("old", "add", { a: 1, b: 2 }, signal)).toEqual({ content: "sum=3" });
  });

  it("the entry's env reaches the child; ${VAR} is expanded from the environment", async () => {
    const envFile = path.join(tmp, "env.json");
    const m = make([stdio("e", ["--dump-env", envFile], { FROM_ENTRY: "${OC_TEST_VALUE}-x" })], { env: { ...process.env, OC_TEST_VALUE: "v1" } });
    m.start();
    await m.settle(10_000);
    expect(m.rows()[0], m.rows()[0]!.reason).toMatchObject({ status: "connected" });
    const env = JSON.parse(fs.readFileSync(envFile, "utf8")) as Record<string, string>;
    expect(env.FROM_ENTRY).toBe("v1-x");
  });
});

describe("doctor", () => {
  it("reachable with tool count, failed with reason, holds not dialed; nothing left running", async () => {
    const rows = await doctor([stdio("ok"), entry("gone", { type: "stdio", command: "/nonexistent/bin", args: [], env: {} }), { ...stdio("twin"), hold: "shadowed", reason: "project:twin runs" }], { timeoutMs: 5000 });
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ["ok", "reachable"],
      ["gone", "failed"],
      ["twin", "shadowed"],
    ]);
    expect(rows[0]!.tools).toBe(8);
    // a group is forgotten when its leader's exit is seen: give a loaded machine a moment
    for (let i = 0; i < 100 && liveGroupCount() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(liveGroupCount()).toBe(0);
  });
});
