/**
 * `oceancode serve` and its MCP servers before any session (finding 49): the compiled CLI's server starts
 * the trusted servers with itself, so GET /mcp reads `connected` with no session opened (it read
 * `connecting` until the first session); a held server is still never spawned. A real stdio MCP server
 * (the fixture) in ~/.claude.json, a checkout's .mcp.json held untrusted.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startServe, type Served } from "../../serve/test/serve-helpers.js";
import { FIXTURE } from "./helpers.js";

type Row = { name: string; status: string; tools: number };

let sb: Sandbox;
let srv: Served;
let pidFile = "";
let heldPid = "";
let startedAt = 0;

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}\n${srv?.stderr() ?? ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  sb = makeSandbox("oc-mcp-serve-");
  pidFile = path.join(sb.home, "fx.pid");
  heldPid = path.join(sb.home, "held.pid");
  sb.write(".config/oceancode/oceancode.jsonc", JSON.stringify({ sandbox: { pid_namespace: false } }), "home");
  sb.write(".claude.json", JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE, "--name", "fx", "--pid-file", pidFile] } } }), "home");
  sb.write(".mcp.json", JSON.stringify({ mcpServers: { repo_srv: { command: process.execPath, args: [FIXTURE, "--name", "repo_srv", "--pid-file", heldPid] } } }));
  const git = (...a: string[]) => spawnSync("git", ["-C", sb.project, "-c", "user.email=t@t", "-c", "user.name=t", ...a], { encoding: "utf8" });
  git("add", ".mcp.json");
  git("commit", "-qm", "checkout");
  startedAt = Date.now();
  srv = await startServe(["--directory", sb.project], { env: { ...sb.env, ANTHROPIC_API_KEY: "sk-test" } });
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  sb.cleanup();
});

describe("serve starts its MCP servers with itself", () => {
  it("a trusted server is spawned before any request, and GET /mcp reads it connected with no session", async () => {
    // spawned at serve start: no request has been made yet
    await until("the fixture's pid file", () => fs.existsSync(pidFile));
    const first = await srv.api<{ servers: Row[] }>("GET", "/mcp");
    expect(first.status).toBe(200);
    let fx = first.body.servers.find((r) => r.name === "fx");
    await until("fx connected", async () => (fx = (await srv.api<{ servers: Row[] }>("GET", "/mcp")).body.servers.find((r) => r.name === "fx"))?.status === "connected");
    expect(fx!.tools).toBeGreaterThan(0);
    // well before any session would have opened it (it stayed connecting for as long as none did)
    expect(Date.now() - startedAt).toBeLessThan(30_000);
    const sessions = await srv.api<unknown[]>("GET", "/session");
    expect(sessions.status).toBe(200);
    expect(sessions.body).toEqual([]);
    const tools = await srv.api<{ tools: Array<{ name: string }> }>("GET", "/mcp/fx/tools");
    expect(tools.body.tools.map((t) => t.name)).toContain("mcp__fx__add");
  }, 60_000);

  it("a held server reads untrusted and is never spawned", async () => {
    const rows = (await srv.api<{ servers: Row[] }>("GET", "/mcp")).body.servers;
    expect(rows.find((r) => r.name === "repo_srv")?.status).toBe("untrusted");
    expect(fs.existsSync(heldPid)).toBe(false);
  });
});
