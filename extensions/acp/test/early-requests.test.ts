/**
 * Requests a client sends before the initialize reply (smaller finding 48): the guide's probe writes
 * initialize and session/new back to back; session/new must wait for the reply, not be refused. The
 * compiled CLI `oceancode acp`, raw JSON-RPC lines on its stdin, and the ACP SDK's own client.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { methods, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { CLI } from "../../../test/kit/cli.js";
import { acpTests } from "./acp-tests.js";

interface Reply {
  id?: number;
  result?: { sessionId?: string; protocolVersion?: number };
  error?: { message: string };
}

const { sb, env, start } = acpTests("oc-acp-early-");
const raws: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of raws.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

/** `oceancode acp` with each of `chunks` written to its stdin; resolves once replies to `ids` came (bounded). */
function raw(chunks: string | string[], ids: number[]): Promise<{ replies: Reply[]; order: number[] }> {
  const child = spawn(process.execPath, [CLI, "acp"], { env: env(), cwd: sb.project, stdio: ["pipe", "pipe", "pipe"] });
  raws.push(child);
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no replies to ${ids.join(",")} within 30 s; stdout: ${out}\nstderr: ${err}`)), 30_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const replies = out
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Reply)
        .filter((r) => typeof r.id === "number");
      if (ids.every((id) => replies.some((r) => r.id === id))) {
        clearTimeout(timer);
        resolve({ replies, order: replies.map((r) => r.id!) });
      }
    });
    for (const c of typeof chunks === "string" ? [chunks] : chunks) child.stdin.write(c);
  });
}

const line = (id: number, method: string, params: unknown) => `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;

describe("ACP requests before the initialize reply", () => {
  it("the guide's probe: initialize and session/new in one write both succeed, in order", async () => {
    const { replies, order } = await raw(line(1, "initialize", { protocolVersion: 1 }) + line(2, "session/new", { cwd: sb.project, mcpServers: [] }), [1, 2]);
    const init = replies.find((r) => r.id === 1)!;
    const session = replies.find((r) => r.id === 2)!;
    expect(init.result?.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(session.error, JSON.stringify(session.error)).toBeUndefined();
    expect(session.result?.sessionId).toMatch(/\S/);
    expect(order.indexOf(1)).toBeLessThan(order.indexOf(2));
  }, 60_000);

  it("three requests and a line split across writes after initialize all wait and go in order", async () => {
    const all = line(1, "initialize", { protocolVersion: 1 }) + line(2, "session/new", { cwd: sb.project, mcpServers: [] }) + line(3, "session/list", {});
    // cut inside the initialize line and inside the session/new line
    const cuts = [20, all.indexOf("session/new") + 4];
    const { replies } = await raw([all.slice(0, cuts[0]), all.slice(cuts[0], cuts[1]), all.slice(cuts[1])], [1, 2, 3]);
    expect(replies.find((r) => r.id === 3)!.error).toBeUndefined();
    expect(replies.find((r) => r.id === 2)!.result?.sessionId).toMatch(/\S/);
  }, 60_000);

  it("a session/new with no initialize before it is still refused", async () => {
    const { replies } = await raw(line(7, "session/new", { cwd: sb.project, mcpServers: [] }), [7]);
    expect(replies[0]!.error?.message).toMatch(/must be initialized before 'session\/new'/);
  }, 60_000);

  it("the SDK client sending initialize and session/new without waiting gets a session", async () => {
    const c = start();
    const [init, session] = await Promise.all([
      c.conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} }),
      c.conn.agent.request(methods.agent.session.new, { cwd: sb.project, mcpServers: [] }),
    ]);
    expect((init as { protocolVersion: number }).protocolVersion).toBe(PROTOCOL_VERSION);
    expect(session.sessionId).toMatch(/\S/);
    // stdout stays JSON-RPC only
    for (const l of c.stdoutLines) expect(() => JSON.parse(l)).not.toThrow();
  }, 60_000);
});
