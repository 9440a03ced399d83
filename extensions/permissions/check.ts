/**
 * `oceancode permissions check [--mode <mode>] [--json] [--unconfined] <tool> <input>` (or `--stdin <tool>`:
 * one input per line): prints ALLOW, ASK or DENY first, then the rule, layer and file that decided, what
 * happens attended and under --auto (allowed unconfined / allowed confined / asked / rejected / denied, and
 * why: outcome.ts), and for bash each segment's verdict. Runs nothing.
 * --json prints the PermissionDecision (api.ts) plus mode, tool, input and `outcomes`: each segment's `guard`
 * is the shell guard's own verdict, `decision` the outcome after rules and mode (one object per line with --stdin).
 * Exit codes: 0 a decision was printed (whatever it is); 2 bad usage.
 */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import type { PermissionsService, PermissionMode, PermissionDecision } from "./api.js";
import type { SandboxService } from "../sandbox/api.js";
import { isMode } from "./modes.js";
import { outcomes, sandboxView, type Verdict } from "./outcome.js";

const USAGE = "usage: oceancode permissions check [--mode <mode>] [--json] [--unconfined] <tool> <input> | --stdin <tool>";

async function readLines(stdin: NodeJS.ReadableStream | undefined): Promise<string[]> {
  if (!stdin) return [];
  let data = "";
  stdin.setEncoding("utf8");
  for await (const chunk of stdin) data += chunk as string;
  return data.split(/\r?\n/).filter((l) => l.trim() !== "");
}

function verdictLine(label: string, v: Verdict, ask: boolean): string {
  return ask && label === "--auto" && v.outcome !== "rejected" && v.outcome !== "denied" ? `${label}: approves, then ${v.outcome} (${v.why})` : `${label}: ${v.outcome} (${v.why})`;
}

export async function runCheckCommand(argv: string[], io: CommandIO, svc: PermissionsService, configuredMode: string, sandbox: () => SandboxService | undefined = () => undefined): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h") {
    io.stdout.write(`${USAGE}\n  e.g. oceancode permissions check bash 'git push --force'\n       oceancode permissions check read .env\n`);
    return 0;
  }
  if (sub !== "check") {
    io.stderr.write(`oceancode permissions: ${sub ? `unknown subcommand '${sub}'` : "a subcommand is required"}\n${USAGE}\n`);
    return 2;
  }
  let values: { mode?: string; json?: boolean; stdin?: boolean; unconfined?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: { mode: { type: "string" }, json: { type: "boolean" }, stdin: { type: "boolean" }, unconfined: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    io.stderr.write(`oceancode permissions check: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.stdin ? positionals.length !== 1 : positionals.length < 2) {
    io.stderr.write(`oceancode permissions check: needs a tool and its input (the command for bash, the path for file tools)\n${USAGE}\n`);
    return 2;
  }
  if (values.mode !== undefined && !isMode(values.mode)) {
    io.stderr.write(`oceancode permissions check: unknown mode '${values.mode}' (default, acceptEdits, dontAsk, bypassPermissions, plan)\n${USAGE}\n`);
    return 2;
  }
  const [tool, ...inputWords] = positionals as [string, ...string[]];
  const inputs = values.stdin ? await readLines(io.stdin) : [inputWords.join(" ")];
  const m = svc.resolveMode(values.mode ?? configuredMode);
  if (m.note) io.stderr.write(`oceancode: warning: ${m.note}\n`);
  const sb = sandboxView(sandbox());
  const blocks: string[] = [];
  for (const input of inputs) {
    const d: PermissionDecision = await svc.check(tool, input, { cwd: io.project, mode: m.mode as PermissionMode, ...(values.unconfined ? { unconfined: true } : {}) });
    const o = outcomes(tool, d, sb, tool.toLowerCase() === "bash" && svc.exactRule?.(input) === true);
    if (values.json) {
      const obj = { ...d, mode: m.mode, tool, input, outcomes: o };
      blocks.push(values.stdin ? JSON.stringify(obj) : JSON.stringify(obj, null, 2));
      continue;
    }
    const lines = [d.action.toUpperCase(), ...(values.stdin ? [`input: ${input}`] : []), `rule: ${d.rule}`, `layer: ${d.layer}`, `file: ${d.file ?? "(built-in)"}`, `mode: ${m.mode}`, `reason: ${d.reason}`];
    if (d.always) lines.push(`always: ${d.always}`);
    lines.push(verdictLine("attended", o.attended, d.action === "ask"), verdictLine("--auto", o.auto, d.action === "ask"));
    for (const s of d.segments ?? []) {
      lines.push(`segment: ${s.decision.toUpperCase().padEnd(5)} ${s.text}  [${s.rule}; ${s.layer}${s.file ? `; ${s.file}` : ""}] ${s.reason}`);
    }
    blocks.push(lines.join("\n"));
  }
  if (blocks.length) io.stdout.write(`${blocks.join(values.json || !values.stdin ? "\n" : "\n\n")}\n`);
  return 0;
}
