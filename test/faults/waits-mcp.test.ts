/**
 * Waits with a bound, on the MCP side: a real stdio MCP server (the SDK's Server, extensions/mcp/test/fixtures)
 * whose `hang` tool never answers. The call ends at its bound (a server's own tool_timeout_s, else
 * MCP_TOOL_TIMEOUT ms, else mcp.tool_timeout_s) with an error result to the model, the server is told
 * (notifications/cancelled) and the run ends; and with no small bound, a kill -9 while the call hangs
 * loses nothing: the prompt and the step's tool call were stored before the wait, and `run -c` carries
 * them. The compiled CLI, the fake Anthropic server, the real SQLite database read back.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, anthropicEnv, makeSandbox, runCliAsync, type Sandbox } from "../kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../kit/fakes/anthropic-server.js";

const FIXTURE = path.join(REPO_ROOT, "extensions/mcp/test/fixtures/tools-server.mjs");
type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

const blocks = (req: AnthropicRecorded): Block[] => (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as Block[])));
const resultText = (req: AnthropicRecorded, id: string): { text: string; isError: boolean } | undefined => {
  const b = blocks(req).find((x) => x.type === "tool_result" && x.tool_use_id === id);
  if (!b) return undefined;
  const text = typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined) ?? []).map((c) => c.text ?? "").join("");
  return { text, isError: b.is_error === true };
};

/** poll `check` every 25 ms until it holds, at most `ms` */
async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "");

let fake: FakeAnthropicServer;
let sb: Sandbox;
let dbFile: string;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-waits-mcp-");
  dbFile = path.join(sb.home, "oc.db");
});
afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

const server = (hangFile: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [FIXTURE, "--hang", hangFile], ...extra });
const cli = (args: string[]) => ["--dir", sb.project, "--home", sb.home, "--db", dbFile, ...args];

describe("an MCP tool call that never answers", () => {
  it("ends at its bound with an error result; the server hears the cancel; the run ends and stores the turn", async () => {
    const slowFile = path.join(sb.home, "slow.calls");
    const quickFile = path.join(sb.home, "quick.calls");
    // env MCP_TOOL_TIMEOUT (ms) over mcp.tool_timeout_s; a server's own tool_timeout_s over both
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ mcp: { tool_timeout_s: 600, servers: { slow: server(slowFile), quick: server(quickFile, { tool_timeout_s: 0.4 }) } } }), "home");
    fake.reset();
    let n = 0;
    fake.respond(() => {
      n += 1;
      if (n === 1) return { text: "calling slow", toolCalls: [{ id: "t_slow", name: "mcp__slow__hang", input: {} }] };
      if (n === 2) return { text: "calling quick", toolCalls: [{ id: "t_quick", name: "mcp__quick__hang", input: {} }] };
      return { text: "both calls ended" };
    });
    const t0 = Date.now();
    const r = await runCliAsync(cli(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "please call the hanging tools"]), { cwd: sb.project, env: anthropicEnv(sb, fake.url, { MCP_TOOL_TIMEOUT: "700" }), timeoutMs: 45_000 });
    const took = Date.now() - t0;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("both calls ended");
    expect(took).toBeLessThan(30_000);
    expect(fake.requests.length).toBe(3);
    const slow = resultText(fake.requests[1]!, "t_slow");
    expect(slow?.isError).toBe(true);
    expect(slow?.text).toContain(`MCP tool 'hang' on server "slow" gave no answer within 0.7 s (tool_timeout_s); the call was cancelled`);
    const quick = resultText(fake.requests[2]!, "t_quick");
    expect(quick?.isError).toBe(true);
    expect(quick?.text).toContain("gave no answer within 0.4 s");
    // the server was told to stop working on it (notifications/cancelled)
    await until("the cancel notices", () => read(slowFile).includes("cancelled") && read(quickFile).includes("cancelled"));
    expect(read(slowFile)).toBe("called\ncancelled\n");
    // the turn is stored: the prompt, both calls and their error results
    const db = new Database(dbFile, { readonly: true });
    try {
      const rows = db.prepare(`SELECT role, json FROM rows ORDER BY session_id, seq`).all() as Array<{ role: string; json: string }>;
      expect(rows.find((x) => x.role === "user")?.json).toContain("please call the hanging tools");
      const tools = rows.filter((x) => x.role === "tool").map((x) => x.json).join("\n");
      expect(tools).toContain("gave no answer within 0.7 s");
      expect(tools).toContain("gave no answer within 0.4 s");
    } finally {
      db.close();
    }
  });

  it("a kill -9 while it hangs loses nothing: `run -c` sends the prompt and the call (answered as interrupted)", async () => {
    const hangFile = path.join(sb.home, "kill.calls");
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ mcp: { servers: { slow: server(hangFile) } } }), "home");
    fake.reset();
    fake.enqueue({ text: "calling it", toolCalls: [{ id: "t_kill", name: "mcp__slow__hang", input: {} }] });
    const env = anthropicEnv(sb, fake.url);
    const child = spawn(process.execPath, [CLI, ...cli(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "remember the word TIDEPOOL"])], { cwd: sb.project, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_c, sig) => resolve(sig)));
    try {
      await until("the call to reach the server", () => read(hangFile).includes("called"));
      // stored before the wait: the prompt and the step with its tool call are in the database now
      await until("the step in the database", () => {
        if (!fs.existsSync(dbFile)) return false;
        const db = new Database(dbFile, { readonly: true });
        try {
          const rows = db.prepare(`SELECT role, json FROM rows WHERE json LIKE '%TIDEPOOL%' OR json LIKE '%t_kill%'`).all() as Array<{ role: string }>;
          return rows.some((x) => x.role === "user") && rows.some((x) => x.role === "assistant");
        } finally {
          db.close();
        }
      });
    } finally {
      child.kill("SIGKILL");
    }
    expect(await exited, stderr).toBe("SIGKILL");
    const db = new Database(dbFile, { readonly: true });
    const id = (db.prepare(`SELECT session_id FROM rows WHERE json LIKE '%TIDEPOOL%'`).get() as { session_id: string } | undefined)?.session_id;
    db.close();
    expect(id, stderr).toBeTruthy();

    fake.reset();
    fake.enqueue({ text: "The word was TIDEPOOL." });
    const r = await runCliAsync(cli(["run", "-c", "--auto", "--model", "anthropic/claude-sonnet-4-5", "what was the word?"]), { cwd: sb.project, env, timeoutMs: 45_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(id!);
    expect(fake.requests.length).toBe(1);
    const sent = fake.requests[0]!;
    const texts = blocks(sent).map((b) => b.text ?? "").join("\n");
    expect(texts).toContain("remember the word TIDEPOOL");
    expect(blocks(sent).some((b) => b.type === "tool_use" && (b as { id?: string }).id === "t_kill")).toBe(true);
    expect(resultText(sent, "t_kill")?.isError).toBe(true);
    expect(texts).toContain("what was the word?");
  });
});
