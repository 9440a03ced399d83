/**
 * The Claude Code route's test bed: the real claude CLI (node_modules/.bin/claude) driven by the compiled
 * oceancode CLI, both pointed at one fake Anthropic server through ANTHROPIC_BASE_URL, in a throwaway HOME.
 * The fake answers by the prompt: "RUNTOOL" makes Claude Code run one Bash call, then answer.
 */
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, REPO_ROOT, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type AnthropicReply, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

export const CLAUDE_BIN = path.join(REPO_ROOT, "node_modules", ".bin", "claude");

/** The env that keeps claude to the fake: a fake key, no updater, telemetry or error reports. */
export const QUIET_CLAUDE_ENV: NodeJS.ProcessEnv = {
  ANTHROPIC_API_KEY: "sk-ant-fake-claude-code",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
};

/** The text of a request's last user message (string or text blocks; tool results excluded). */
export function lastUserText(req: AnthropicRecorded): string {
  // claude may append a role "system" message after the user's
  const last = (req.body.messages ?? []).filter((m) => m.role === "user").at(-1);
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.filter((b) => b.type === "text").map((b) => String(b.text)).join("\n");
}

export function hasToolResult(req: AnthropicRecorded): boolean {
  const last = (req.body.messages ?? []).filter((m) => m.role === "user").at(-1);
  return Array.isArray(last?.content) && last.content.some((b) => b.type === "tool_result");
}

/** Every text the request carries (all messages), for "did claude see X" checks. */
export function allText(req: AnthropicRecorded): string {
  return JSON.stringify(req.body.messages ?? []);
}

export function reply(req: AnthropicRecorded): AnthropicReply {
  if (hasToolResult(req)) return { text: "done tool" };
  const text = lastUserText(req);
  if (text.includes("RUNTOOL")) return { toolCalls: [{ name: "Bash", input: { command: "echo made >> made.txt", description: "mark" } }] };
  return { text: `reply: ${text.replace(/\s+/g, " ").slice(-40)}` };
}

export interface Bed {
  sb: Sandbox;
  fake: FakeAnthropicServer;
  env: NodeJS.ProcessEnv;
  /** the requests claude made for conversation turns (its tools list is set), not its side requests */
  turns(): AnthropicRecorded[];
  run(args: string[], extra?: NodeJS.ProcessEnv): Promise<RunResult>;
  /** run with `input` on stdin */
  runInput(args: string[], input: string): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startBed(): Promise<Bed> {
  const fake = await startFakeAnthropic();
  fake.respond(reply);
  const sb = makeSandbox("oc-claude-code-");
  // claude's own permission rules let it run Bash here (its -p mode denies what they do not allow)
  sb.write(".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash", "Edit", "Write"] } }));
  fs.mkdirSync(path.join(sb.home, ".claude"), { recursive: true });
  // and acceptEdits (the route's claude_code.permission_mode) lets its Bash write inside the project
  sb.write(".config/oceancode/oceancode.json", JSON.stringify({ claude_code: { permission_mode: "acceptEdits" } }), "home");
  const env = { ...sb.env, ...QUIET_CLAUDE_ENV, ANTHROPIC_BASE_URL: fake.url, OC_CLAUDE_BIN: CLAUDE_BIN, OC_RETRY_BASE_MS: "10" };
  return {
    sb,
    fake,
    env,
    turns: () => fake.requests.filter((r) => r.path.startsWith("/v1/messages") && (r.body.tools?.length ?? 0) > 0),
    run: (args, extra = {}) => runCliAsync(args, { cwd: sb.project, env: { ...env, ...extra }, timeoutMs: 90_000 }),
    runInput: (args, input) => runCliAsync(args, { cwd: sb.project, env, input, timeoutMs: 90_000 }),
    close: async () => {
      await fake.close();
      sb.cleanup();
    },
  };
}
