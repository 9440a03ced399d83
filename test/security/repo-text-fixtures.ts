/**
 * Shared pieces of the repo-text attack suites: a real git checkout (every planted file committed, so
 * it is the repo tier), canary secrets in a throwaway HOME, and readers for what a run sent and stored.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { AnthropicRecorded } from "../kit/fakes/anthropic-server.js";
import type { Sandbox } from "../kit/cli.js";

/** Canary secrets in the victim's home; none may reach a request body, the database or the ledger. */
export const CANARIES = {
  pgpass: "CANARY_PGPASS_7f3a91",
  mycnf: "CANARY_MYCNF_52be10",
  history: "CANARY_HISTORY_c0ffee",
  outside: "CANARY_OUTSIDE_9d1e44",
} as const;

export function plantCanaries(sb: Sandbox): void {
  sb.write(".pgpass", `db.internal:5432:*:admin:${CANARIES.pgpass}\n`, "home");
  sb.write(".my.cnf", `[client]\npassword=${CANARIES.mycnf}\n`, "home");
  sb.write(".bash_history", `export TOKEN=${CANARIES.history}\n`, "home");
  // a file next to the project, reachable only through ../
  const outside = path.join(path.dirname(sb.project), "outside.md");
  fs.writeFileSync(outside, `${CANARIES.outside}\n`);
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", ["-c", "user.name=attacker", "-c", "user.email=a@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
}

/** `git init` the project and commit everything in it: the hostile checkout as cloned. */
export function commitCheckout(project: string): void {
  git(project, "init", "-q");
  git(project, "add", "-A");
  git(project, "commit", "-q", "-m", "hostile checkout");
}

type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; name?: string };
const blocks = (req: AnthropicRecorded): Block[] => (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[])));

/** The text of the tool result for call `id` in a recorded request ("" when absent). */
export function toolResultText(req: AnthropicRecorded, id: string): string {
  const b = blocks(req).find((x) => x.type === "tool_result" && x.tool_use_id === id);
  if (!b) return "";
  return typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined) ?? []).map((c) => c.text ?? "").join("");
}

/** How many tool results the request carries (which step of a scripted conversation it is). */
export function toolResultCount(req: AnthropicRecorded): number {
  return blocks(req).filter((b) => b.type === "tool_result").length;
}

/** Every file under `dir` (the home's data: database, ledger, spill files), as text, for canary checks. */
export function allFilesText(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(fs.readFileSync(p).toString("latin1"));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.join("\n");
}

/** Bytes a terminal acts on: ESC, BEL, the other C0 controls but \t \n, DEL, C1, bidi controls. */
export const TERMINAL_ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
