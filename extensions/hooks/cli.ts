/** `oceancode hooks list [--json] | add <Event> ... | remove <Event> ...` — reads and edits files only. */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import { HOOK_EVENTS, type HooksReport } from "./api.js";
import { isHookEvent } from "./kit/shared.js";
import { formatReport } from "./registry.js";
import { matcherIsValid } from "./matcher.js";
import { addHandler, removeHandler, scopeFile, SettingsFileError, type Scope } from "./settings-edit.js";

export const HOOKS_USAGE = [
  "usage: oceancode hooks [--dir <d>] [--home <h>] list [--json]",
  "       oceancode hooks add <Event> --command <cmd> [--matcher <re>] [--timeout <s>] [--scope user|project|local]",
  "       oceancode hooks remove <Event> --command <cmd> [--matcher <re>] [--scope user|project|local]",
].join("\n");

export async function hooksCommand(argv: string[], io: CommandIO, listReport: () => Promise<HooksReport>): Promise<number> {
  const bad = (why: string) => {
    io.stderr.write(`oceancode hooks: ${why}\n${HOOKS_USAGE}\n`);
    return 2;
  };
  const [verb, ...rest] = argv;
  if (verb === "--help" || verb === "-h") {
    io.stdout.write(`${HOOKS_USAGE}\n`);
    return 0;
  }
  if (verb === "list" || verb === undefined) {
    let json = false;
    try {
      json = parseArgs({ args: rest, options: { json: { type: "boolean" } }, strict: true }).values.json === true;
    } catch (e) {
      return bad((e as Error).message);
    }
    const r = await listReport();
    io.stdout.write(json ? `${JSON.stringify(r, null, 2)}\n` : `${formatReport(r).join("\n")}\n`);
    return 0;
  }
  if (verb !== "add" && verb !== "remove") return bad(`unknown subcommand '${verb}'`);
  let values: { command?: string; matcher?: string; timeout?: string; scope?: string };
  let positionals: string[];
  try {
    const p = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { command: { type: "string" }, matcher: { type: "string" }, timeout: { type: "string" }, scope: { type: "string" } },
    });
    values = p.values;
    positionals = p.positionals;
  } catch (e) {
    return bad((e as Error).message);
  }
  const [event, ...more] = positionals;
  if (!event || more.length > 0) return bad(`${verb} takes exactly one <Event>`);
  if (!isHookEvent(event)) return bad(`unknown event '${event}' (one of: ${HOOK_EVENTS.join(", ")})`);
  if (!values.command) return bad(`${verb} needs --command <cmd>`);
  if (values.matcher !== undefined && !matcherIsValid(values.matcher)) return bad(`--matcher '${values.matcher}' is not a valid regular expression`);
  const scope = (values.scope ?? "project") as Scope;
  if (!["user", "project", "local"].includes(scope)) return bad(`--scope must be user, project or local, not '${values.scope}'`);
  let timeout: number | undefined;
  if (values.timeout !== undefined) {
    if (verb === "remove") return bad("remove takes no --timeout");
    timeout = Number(values.timeout);
    if (!Number.isFinite(timeout) || timeout <= 0) return bad(`--timeout must be a positive number of seconds, not '${values.timeout}'`);
  }
  const file = scopeFile(scope, io.project, io.home);
  try {
    if (verb === "add") {
      addHandler(file, event, values.matcher, values.command, timeout);
      io.stdout.write(`HOOK_ADDED ${file}\n`);
      return 0;
    }
    if (!removeHandler(file, event, values.matcher, values.command)) {
      io.stderr.write("hooks remove: no such handler\n");
      return 1;
    }
    io.stdout.write(`HOOK_REMOVED ${file}\n`);
    return 0;
  } catch (e) {
    if (SettingsFileError.is(e)) {
      io.stderr.write(`oceancode hooks ${verb}: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
