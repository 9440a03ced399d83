/** Shared by the goal tests: the fake Anthropic server scripted per role (told apart by the system prompt), and one real `oceancode goal`. */
import fs from "node:fs";
import path from "node:path";
import { lastUserText, systemOf, type AnthropicRecorded, type AnthropicReply, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { anthropicEnv, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";

export type Role = "planner" | "worker" | "skeptic" | "other";

export function roleOf(req: AnthropicRecorded): Role {
  const sys = systemOf(req);
  if (sys.includes("goal planner")) return "planner";
  if (sys.includes("goal worker")) return "worker";
  if (sys.includes("goal skeptic")) return "skeptic";
  return "other";
}

/** The verification round a skeptic's request is for (its prompt says "Verification round N."). */
export function roundOf(req: AnthropicRecorded): number {
  const m = /Verification round (\d+)\./.exec(lastUserText(req.body));
  return m ? Number(m[1]) : 0;
}

export const fenced = (v: unknown): string => `Here it is.\n\n\`\`\`json\n${JSON.stringify(v, null, 2)}\n\`\`\`\n`;

export const PLAN = fenced({ deliverables: [{ id: "d1", text: "hello.txt says hi", check: "read hello.txt" }, { id: "d2", text: "README mentions hello.txt", check: "grep hello README.md" }] });

export interface Script {
  planner?(req: AnthropicRecorded, n: number): AnthropicReply;
  worker?(req: AnthropicRecorded, n: number): AnthropicReply;
  skeptic(req: AnthropicRecorded, n: number): AnthropicReply;
}

/** Route each request to its role's script; `n` counts that role's requests from 1. */
export function script(fake: FakeAnthropicServer, s: Script): void {
  const counts: Record<Role, number> = { planner: 0, worker: 0, skeptic: 0, other: 0 };
  fake.respond((req) => {
    const role = roleOf(req);
    const n = ++counts[role];
    if (role === "planner") return s.planner?.(req, n) ?? { text: PLAN };
    if (role === "worker") return s.worker?.(req, n) ?? { text: `WORKER-MARK-${n}: did the work` };
    if (role === "skeptic") return s.skeptic(req, n);
    return { text: "ok" };
  });
}

export interface GoalRun extends RunResult {
  bodies: Array<Record<string, unknown>>;
}

/** `oceancode goal <args>` in the sandbox on the fake server. */
export async function runGoal(sb: Sandbox, fake: FakeAnthropicServer, args: string[]): Promise<GoalRun> {
  const r = await runCliAsync(["--dir", sb.project, "goal", "-m", "anthropic/claude-haiku-4-5", ...args], { cwd: sb.project, env: anthropicEnv(sb, fake.url), timeoutMs: 30_000 });
  const bodies = r.stdout.trim() ? r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) : [];
  return { ...r, bodies };
}

/** The run store directory of a run id in the sandbox's data dir. */
export function runDir(sb: Sandbox, runId: string): string {
  return path.join(sb.home, ".local", "share", "oceancode", "workflow-runs", runId);
}

export function readStore(sb: Sandbox, runId: string): { meta: Record<string, unknown>; lines: string[] } {
  const dir = runDir(sb, runId);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "run.json"), "utf8")) as Record<string, unknown>;
  const lines = fs.readFileSync(path.join(dir, "updates.jsonl"), "utf8").trim().split("\n");
  return { meta, lines };
}
