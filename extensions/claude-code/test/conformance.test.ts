/**
 * The provider conformance suite on the Claude Code route: the provider itself (in this process) runs the
 * real claude CLI against the fake Anthropic server. What cannot apply to a CLI route: a tool call is
 * performed by Claude Code (tool_performed, done end_turn), never handed to the engine (performsTools);
 * the network code cannot be arranged (claude owns the connection and its retries).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describeProviderContract, type ProviderScenario } from "../../engine/testing/provider.js";
import { startFakeAnthropic, type AnthropicReply } from "../../../test/kit/fakes/anthropic-server.js";
import { createClaudeCodeProvider } from "../provider.js";
import { readMirror } from "../settings.js";
import { RouteStates } from "../state.js";
import { CLAUDE_BIN, hasToolResult, QUIET_CLAUDE_ENV } from "./fixture.js";

const ERROR_REPLY: Record<string, AnthropicReply> = {
  rate_limited: { type: "error", status: 429, errorType: "rate_limit_error", message: "slow down" },
  overloaded: { type: "error", status: 529, errorType: "overloaded_error", message: "Overloaded" },
  server: { type: "error", status: 500, errorType: "api_error", message: "boom" },
  auth: { type: "error", status: 401, errorType: "authentication_error", message: "invalid x-api-key" },
  bad_request: { type: "error", status: 400, errorType: "invalid_request_error", message: "bad field" },
  prompt_too_long: { type: "too_long" },
};

describeProviderContract("claude-code (the real claude CLI)", async () => {
  const fake = await startFakeAnthropic();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-cc-conf-"));
  const home = path.join(root, "home");
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  let scenario: ProviderScenario = { kind: "text", text: "" };
  fake.respond((req) => {
    const s = scenario;
    if (s.kind === "text") return { text: s.text };
    if (s.kind === "stall") return { text: s.text.repeat(80), streamMs: 20_000 }; // the first deltas early, the rest slow
    if (s.kind === "error") return ERROR_REPLY[s.code]!;
    return hasToolResult(req) ? { text: "read done" } : { toolCalls: [{ name: s.name, input: s.input }] };
  });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, ...QUIET_CLAUDE_ENV, ANTHROPIC_BASE_URL: fake.url, CLAUDE_CODE_MAX_RETRIES: "0" };
  const provider = createClaudeCodeProvider({
    bin: () => CLAUDE_BIN,
    env,
    configDir: () => path.join(home, ".claude"),
    compose: async (spec) => spec,
    mirror: () => readMirror([], true),
    page: () => undefined,
    permissionMode: () => undefined,
    project: root,
    states: new RouteStates(path.join(root, "state")),
  });
  return {
    provider,
    model: "sonnet",
    performsTools: true,
    errors: ["rate_limited", "overloaded", "server", "prompt_too_long", "auth", "bad_request"],
    arrange: (s) => {
      scenario = s;
    },
    close: async () => {
      await fake.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
});
