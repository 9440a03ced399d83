/** `oceancode trust show | repo on|off | mcp <name> on|off|clear` */
import type { CommandIO } from "../../kernel/api.js";
import { type ProjectTrust, type TrustService } from "./api.js";
import { emptyTrust, isTrustFileError } from "./kit/shared.js";

export const TRUST_USAGE = "usage: oceancode trust show | repo on|off | mcp <name> on|off|clear  [--dir <d>] [--home <h>]";

export function formatTrust(t: ProjectTrust): string[] {
  const lines = [`repo=${t.repo}`];
  for (const name of Object.keys(t.mcp).sort()) lines.push(`mcp ${name}=${t.mcp[name]}`);
  for (const name of [...t.disabled_mcp].sort()) lines.push(`disabled ${name}`);
  lines.push("TRUST_OK");
  return lines;
}

function onOff(v: string | undefined): boolean | undefined {
  return v === "on" ? true : v === "off" ? false : undefined;
}

export async function trustCommand(store: TrustService, argv: string[], io: CommandIO): Promise<number> {
  const bad = (why: string) => {
    io.stderr.write(`oceancode trust: ${why}\n${TRUST_USAGE}\n`);
    return 2;
  };
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(`${TRUST_USAGE}\n`);
    return 0;
  }
  const [verb, a, b, ...extra] = argv;
  const project = io.project;
  try {
    let t: ProjectTrust;
    let problem: string | undefined;
    if (verb === "show" && a === undefined) {
      problem = store.problem();
      t = problem === undefined ? store.get(project) : emptyTrust();
    } else if (verb === "repo" && b === undefined) {
      const on = onOff(a);
      if (on === undefined) return bad(`repo takes on or off, not '${a ?? ""}'`);
      t = store.update(project, (x) => {
        x.repo = on;
      });
    } else if (verb === "mcp" && a !== undefined && extra.length === 0) {
      if (b !== "on" && b !== "off" && b !== "clear") return bad(`mcp ${a} takes on, off or clear, not '${b ?? ""}'`);
      t = store.update(project, (x) => {
        if (b === "clear") delete x.mcp[a];
        else x.mcp[a] = b === "on";
      });
    } else {
      return bad(verb === undefined ? "missing subcommand" : `unexpected arguments: ${argv.join(" ")}`);
    }
    if (problem !== undefined) {
      // what holds now (nothing trusted), without the OK: a script must not read a broken file as fine
      io.stdout.write(`${formatTrust(t).slice(0, -1).join("\n")}\n`);
      io.stderr.write(`oceancode trust: ${store.file} is not a valid trust file (${problem}): until it is fixed or deleted nothing is trusted\n`);
      return 1;
    }
    io.stdout.write(`${formatTrust(t).join("\n")}\n`);
    return 0;
  } catch (e) {
    if (isTrustFileError(e)) {
      io.stderr.write(`oceancode trust: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
