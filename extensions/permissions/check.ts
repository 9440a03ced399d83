/**
 * `oceancode permissions check [--mode <mode>] [--json] <tool> <input>`: prints ALLOW, ASK or DENY first,
 * then the rule, layer and file that decided, and for bash each segment's verdict. Runs nothing.
 * --json prints the PermissionDecision (api.ts) plus mode, tool and input: each segment's `guard` is the
 * shell guard's own verdict, `decision` the outcome after rules and mode.
 * Exit codes: 0 a decision was printed (whatever it is); 2 bad usage.
 */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import type { PermissionsService, PermissionMode } from "./api.js";
import { isMode } from "./modes.js";

const USAGE = "usage: oceancode permissions check [--mode <mode>] [--json] <tool> <input>";

export async function runCheckCommand(argv: string[], io: CommandIO, svc: PermissionsService, configuredMode: string): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h") {
    io.stdout.write(`${USAGE}\n  e.g. oceancode permissions check bash 'git push --force'\n       oceancode permissions check read .env\n`);
    return 0;
  }
  if (sub !== "check") {
    io.stderr.write(`oceancode permissions: ${sub ? `unknown subcommand '${sub}'` : "a subcommand is required"}\n${USAGE}\n`);
    return 2;
  }
  let values: { mode?: string; json?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: rest, options: { mode: { type: "string" }, json: { type: "boolean" } }, allowPositionals: true, strict: true }));
  } catch (e) {
    io.stderr.write(`oceancode permissions check: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (positionals.length < 2) {
    io.stderr.write(`oceancode permissions check: needs a tool and its input (the command for bash, the path for file tools)\n${USAGE}\n`);
    return 2;
  }
  if (values.mode !== undefined && !isMode(values.mode)) {
    io.stderr.write(`oceancode permissions check: unknown mode '${values.mode}' (default, acceptEdits, dontAsk, bypassPermissions, plan)\n${USAGE}\n`);
    return 2;
  }
  const [tool, ...inputWords] = positionals as [string, ...string[]];
  const input = inputWords.join(" ");
  const m = svc.resolveMode(values.mode ?? configuredMode);
  if (m.note) io.stderr.write(`oceancode: warning: ${m.note}\n`);
  const d = await svc.check(tool, input, { cwd: io.project, mode: m.mode as PermissionMode });
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...d, mode: m.mode, tool, input }, null, 2)}\n`);
    return 0;
  }
  const lines = [d.action.toUpperCase(), `rule: ${d.rule}`, `layer: ${d.layer}`, `file: ${d.file ?? "(built-in)"}`, `mode: ${m.mode}`, `reason: ${d.reason}`];
  if (d.always) lines.push(`always: ${d.always}`);
  if (d.action === "ask") lines.push(`--auto: ${d.autoApprove === false ? "rejects (a guard ask; only a person, or an exact allow rule for the command, can approve it)" : "approves"}`);
  for (const s of d.segments ?? []) {
    lines.push(`segment: ${s.decision.toUpperCase().padEnd(5)} ${s.text}  [${s.rule}; ${s.layer}${s.file ? `; ${s.file}` : ""}] ${s.reason}`);
  }
  io.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
