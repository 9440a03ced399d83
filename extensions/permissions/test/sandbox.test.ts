import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import net from "node:net";
import { spawnSync, spawn } from "node:child_process";
import { wrapSpawn } from "../../sandbox/wrap.js";
import { planFor } from "../../sandbox/config.js";
import { seatbeltProfile } from "../../sandbox/seatbelt.js";
import { startRelay, type Relay } from "../../sandbox/relay.js";
import { findOnPath } from "../../sandbox/bwrap.js";
import type { SpawnSpec } from "../../engine/api.js";

const hasBwrap = process.platform === "linux" && !!findOnPath("bwrap");

/** Async run: the relay lives in this process, so the event loop must keep turning. */
function runAsync(spec: SpawnSpec): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env });
    let out = "";
    let err = "";
    c.stdout.on("data", (d: Buffer) => (out += d.toString()));
    c.stderr.on("data", (d: Buffer) => (err += d.toString()));
    c.on("close", (code) => resolve({ code, out, err }));
  });
}

function run(spec: SpawnSpec): { code: number | null; out: string; err: string } {
  const r = spawnSync(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, encoding: "utf8", timeout: 20_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe.runIf(hasBwrap)("sandbox (real bwrap)", () => {
  let root: string;
  let project: string;
  let outside: string;
  beforeAll(() => {
    // outside /tmp, so the private /tmp does not hide the test dirs
    root = fs.mkdtempSync(path.join(os.homedir(), ".oc-sbx-"));
    project = path.join(root, "project");
    outside = path.join(root, "outside");
    fs.mkdirSync(path.join(project, "secrets"), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(project, "secrets", "key.txt"), "hunter2");
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const spec = (script: string): SpawnSpec => ({ command: "sh", args: ["-c", script], cwd: project, env: { PATH: process.env.PATH }, purpose: "bash" });
  const plan = () => planFor({ enabled: true, deny: ["secrets"], network: "off" }, project, project);

  it("the workspace is writable, outside is not", () => {
    const r = run(wrapSpawn(spec(`echo in > inside.txt && echo out > ${outside}/x.txt`), plan()));
    expect(fs.readFileSync(path.join(project, "inside.txt"), "utf8")).toBe("in\n");
    expect(fs.existsSync(path.join(outside, "x.txt"))).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/Read-only file system/);
  });
  it("a denied root cannot be read", () => {
    const r = run(wrapSpawn(spec("cat secrets/key.txt"), plan()));
    expect(r.out).not.toContain("hunter2");
    expect(r.code).not.toBe(0);
  });
  it("/tmp is private", () => {
    const marker = path.join(os.tmpdir(), `oc-sbx-${process.pid}`);
    run(wrapSpawn(spec(`echo x > ${marker}`), plan()));
    expect(fs.existsSync(marker)).toBe(false);
  });
  it("with network off a socket to 127.0.0.1 fails", async () => {
    const server = net.createServer((c) => {
      c.on("error", () => undefined);
      c.end("hello\n");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    const js = `require("net").connect(${port},"127.0.0.1").on("connect",()=>{console.log("CONNECTED");process.exit(0)}).on("error",e=>{console.log("ERR "+e.code);process.exit(3)})`;
    const s: SpawnSpec = { command: process.execPath, args: ["-e", js], cwd: project, env: { PATH: process.env.PATH }, purpose: "bash" };
    // unsandboxed control: the server is reachable
    const control = await new Promise<string>((resolve) => {
      const c = spawn(s.command, s.args, { env: s.env });
      let o = "";
      c.stdout.on("data", (d: Buffer) => (o += d.toString()));
      c.on("close", () => resolve(o));
    });
    expect(control).toContain("CONNECTED");
    const r = run(wrapSpawn(s, plan()));
    server.close();
    expect(r.out).toMatch(/ERR ECONNREFUSED/);
    expect(r.code).toBe(3);
  });
  it("bwrap missing: the spawn fails with how to install it, never runs unsandboxed", () => {
    const r = run(wrapSpawn(spec("echo RAN"), plan(), { envPath: "/nonexistent" }));
    expect(r.out).not.toContain("RAN");
    expect(r.code).toBe(126);
    expect(r.err).toMatch(/apt install bubblewrap/);
  });

  describe("network allowlist through the relay", () => {
    let relay: Relay;
    let server: http.Server;
    let port = 0;
    beforeAll(async () => {
      server = http.createServer((_q, s) => s.end("FROM-HOST"));
      await new Promise<void>((r) => server.listen(0, r));
      port = (server.address() as net.AddressInfo).port;
      relay = await startRelay(["localhost"]);
    });
    afterAll(async () => {
      server.close();
      await relay.close();
    });
    const curl = (url: string): SpawnSpec => ({ command: "curl", args: ["-s", "-S", "--max-time", "5", url], cwd: project, env: { PATH: process.env.PATH }, purpose: "bash" });
    const aplan = () => planFor({ enabled: true, network: "allowlist", allow_hosts: ["localhost"] }, project, project);
    it.runIf(!!findOnPath("curl"))("an allowed host is reached, another is refused", async () => {
      const ok = await runAsync(wrapSpawn(curl(`http://localhost:${port}/`), aplan(), { relayDir: relay.dir }));
      expect(ok.out).toBe("FROM-HOST");
      const no = await runAsync(wrapSpawn(curl(`http://127.0.0.1:${port}/`), aplan(), { relayDir: relay.dir }));
      expect(no.out).not.toContain("FROM-HOST");
      expect(no.out).toMatch(/not in sandbox.allow_hosts/);
    });
  });
});

describe("macOS profile", () => {
  it("writes only in the project, hides deny roots, no network", () => {
    const p = seatbeltProfile(planFor({ deny: [".git"], network: "off" }, "/Users/a/proj", "/Users/a/proj", "/Users/a"));
    expect(p).toContain("(deny file-write*)");
    expect(p).toContain('(allow file-write* (subpath "/Users/a/proj")');
    expect(p).toContain('(deny file-read* file-write* (subpath "/Users/a/proj/.git"))');
    expect(p).toContain("(deny network*)");
    expect(p).not.toContain("remote tcp");
    expect(seatbeltProfile(planFor({ network: "allowlist" }, "/p", "/p"), 4321)).toContain('(remote tcp "localhost:4321")');
  });
});
