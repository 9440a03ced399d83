/**
 * Live switches reach MCP on the very next step: the compiled CLI `run --auto` against the fake Anthropic
 * server with the reference server (server-everything, stdio) in the fixture HOME's ~/.claude.json. While
 * the model "thinks" about step 1, the responder (in-process) runs `oceancode mcp disable everything` or
 * `oceancode skill everything off`; step 2's request must carry no mcp__everything__* tool.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import type { AnthropicRecorded } from "../../../test/kit/fakes/anthropic-server.js";
import { fakeAnthropicForFile, perTest } from "../../../test/kit/file-fixtures.js";

const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const mcpTools = (req: AnthropicRecorded): string[] => (req.body.tools ?? []).map((t) => String(t.name)).filter((n) => n.startsWith("mcp__"));

const fake = fakeAnthropicForFile();
const { makeSandbox } = perTest();

/**
 * step 1 answers with a bash call after running `between` (a CLI command); `sleeps` more steps each run
 * `sleep 3`; the last step ends the prompt. `before` runs before the prompt.
 */
async function twoSteps(between: string[], opts: { before?: string[]; sleeps?: number; setup?: (sb: Sandbox) => void } = {}): Promise<{ code: number | null; stderr: string; between: string }> {
  const sb = makeSandbox("oc-mcp-live-");
  if (opts.setup) opts.setup(sb);
  else sb.write(".claude.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }), "home");
  if (opts.before) expect(runCli(opts.before, { cwd: sb.project, env: sb.env }).code).toBe(0);
  fake.reset();
  let i = 0;
  let out = "";
  fake.respond(() => {
    const n = i++;
    if (n === 0) {
      const r = runCli(between, { cwd: sb.project, env: sb.env });
      out = `${r.code} ${r.stdout}${r.stderr}`;
      return { text: "step 1", toolCalls: [{ id: "t1", name: "bash", input: { command: "true" } }] };
    }
    if (n <= (opts.sleeps ?? 0)) return { text: `step ${n + 1}`, toolCalls: [{ id: `t${n + 1}`, name: "bash", input: { command: "sleep 3" } }] };
    return { text: "done" };
  });
  const r = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "go"], {
    cwd: sb.project,
    env: { ...sb.env, ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url, OC_RETRY_BASE_MS: "10", OC_MCP_WAIT_SECONDS: "30" },
    timeoutMs: 90_000,
  });
  return { code: r.code, stderr: r.stderr, between: out };
}

describe("MCP live switches", () => {
  it("`oceancode mcp disable everything` between two steps: step 2 offers none of its tools", async () => {
    const r = await twoSteps(["mcp", "disable", "everything"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.between).toMatch(/^0 disabled everything/);
    expect(fake.requests.length).toBe(2);
    expect(mcpTools(fake.requests[0]!)).toContain("mcp__everything__echo");
    expect(mcpTools(fake.requests[1]!)).toEqual([]);
  }, 120_000);

  it("`oceancode skill everything off` between two steps: step 2 offers no MCP tool", async () => {
    const r = await twoSteps(["skill", "everything", "off"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.between).toMatch(/^0 everything off/);
    expect(mcpTools(fake.requests[0]!)).toContain("mcp__everything__echo");
    expect(mcpTools(fake.requests[1]!)).toEqual([]);
    expect((fake.requests[1]!.body.tools ?? []).map((t) => String(t.name))).toContain("bash");
  }, 120_000);

  it("`oceancode mcp enable everything` mid-prompt: the server starts, and its tools join once it connected", async () => {
    const r = await twoSteps(["mcp", "enable", "everything"], { before: ["mcp", "disable", "everything"], sleeps: 1 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.between).toMatch(/^0 enabled everything/);
    expect(fake.requests.length).toBe(3);
    expect(mcpTools(fake.requests[0]!)).toEqual([]);
    expect(mcpTools(fake.requests[2]!)).toContain("mcp__everything__echo");
  }, 120_000);

  it("`oceancode plugin disable pk` between two steps: the plugin's server goes with it", async () => {
    const r = await twoSteps(["plugin", "disable", "pk"], {
      setup: (sb) => {
        sb.write("plugin-src/pk/.mcp.json", JSON.stringify({ mcpServers: { pev: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }), "home");
        sb.write(".oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "pk", path: path.join(sb.home, "plugin-src", "pk"), enabled: true, trusted: true }] }), "home");
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(mcpTools(fake.requests[0]!)).toContain("mcp__pev__echo");
    expect(mcpTools(fake.requests[1]!)).toEqual([]);
  }, 120_000);
});
