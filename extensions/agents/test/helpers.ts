/** What the agents tests read from recorded Anthropic requests, and where a run's ledger is. */
import fs from "node:fs";
import path from "node:path";
import { systemOf, type AnthropicRecorded } from "../../../test/kit/fakes/anthropic-server.js";

export type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; name?: string };

export { systemOf };
export { blockText as textOf, toolNames, toolResultOf as resultOf } from "../../../test/kit/fakes/anthropic-server.js";

/** The parent (root) session's requests carry the agent listing; a child's never do. */
export const isParent = (req: AnthropicRecorded): boolean => systemOf(req).includes("<available_agents>");

const blocks = (req: AnthropicRecorded): Block[] => (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[])));

export const hasToolResult = (req: AnthropicRecorded): boolean => blocks(req).some((b) => b.type === "tool_result");

/** The first user message's text (the prompt a child was given). */
export function firstUserText(req: AnthropicRecorded): string {
  const m = (req.body.messages ?? []).find((x) => x.role === "user");
  if (!m) return "";
  return typeof m.content === "string" ? m.content : (m.content as Block[]).map((b) => b.text ?? "").join("");
}

/** Every folder named `name` under `dir` (the ledger root is found, not assumed). */
export function findDirs(dir: string, name: string, depth = 8): string[] {
  if (depth < 0 || !fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const p = path.join(dir, d.name);
    if (d.name === name) out.push(p);
    out.push(...findDirs(p, name, depth - 1));
  }
  return out;
}

export const sessionOf = (stderr: string): string | undefined => /session: (ses_\w+)/.exec(stderr)?.[1];
