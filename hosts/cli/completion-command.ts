/**
 * `oceancode completion <shell>` prints the script; the hidden `oceancode __complete models|sessions` is what
 * the script calls on tab: model names from the provider manifests (no provider loads) and this
 * directory's session ids from the storage service.
 */
import type { Kernel } from "../boot.js";
import type { CommandIO } from "../../kernel/api.js";
import { type ModelNameEntry } from "../../extensions/engine/api.js";
import { ModelNames } from "../../extensions/engine/kit.js";
import { commandHelp, declaredFlags, flagsFromUsage, GLOBAL_FLAGS, type CommandDoc, type FlagDoc } from "./help.js";
import { COMPLETION_DOC, COMPLETION_INSTALL, COMPLETION_USAGE, completionScript, SHELLS, type CompletionCommand, type Shell } from "./completion.js";
import { didYouMean } from "./suggest.js";

/** Every command the CLI has, with its flags: the host's, this one, and the extensions' (their manifests). */
function commands(kernel: Kernel, hosts: ReadonlyArray<CommandDoc & { flags: FlagDoc[] }>): CompletionCommand[] {
  const contributed = kernel
    .commands()
    .filter((c) => !c.hidden)
    .map((c) => ({ name: c.name, summary: c.summary, flags: declaredFlags(c) ?? flagsFromUsage(c.usage, c.extension) }));
  return [...hosts.map((h) => ({ name: h.name, summary: h.summary, flags: h.flags })), { ...COMPLETION_DOC, flags: [] }, ...contributed];
}

/** The model names a person may type: aliases first, then every listed full id. */
export function modelCandidates(kernel: Kernel): string[] {
  const names = ModelNames.fromContributions(kernel.pointContributions<string[]>("providers"), kernel.pointContributions<ModelNameEntry[]>("models"));
  return [...names.aliases().map(([a]) => a), ...names.listed()];
}

export async function completionCommand(kernel: Kernel, sub: "completion" | "__complete", args: string[], io: CommandIO, hosts: ReadonlyArray<CommandDoc & { flags: FlagDoc[] }>): Promise<number> {
  if (sub === "__complete") {
    if (args[0] === "models") io.stdout.write(modelCandidates(kernel).map((m) => `${m}\n`).join(""));
    else if (args[0] === "sessions" && kernel.hasService("storage")) {
      const s = await kernel.service("storage");
      await s.settle();
      io.stdout.write((await s.listSessions({ cwd: io.project, limit: 100 })).map((x) => `${x.id}\n`).join(""));
    } else if (args[0] === "commands") io.stdout.write(commands(kernel, hosts).map((c) => `${c.name}\n`).join(""));
    return 0;
  }
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${commandHelp(COMPLETION_DOC, [])}\n\n${COMPLETION_INSTALL}\n`);
    return 0;
  }
  const shell = args[0];
  if (!shell || !(SHELLS as readonly string[]).includes(shell) || args.length > 1) {
    const why = !shell ? "which shell? " : args.length > 1 ? `one shell only (got ${args.length} words) ` : `unknown shell '${shell}'${didYouMean(shell, SHELLS)} `;
    io.stderr.write(`oceancode completion: ${why.trim()}\nusage: ${COMPLETION_USAGE}  (oceancode completion --help shows how to install it)\n`);
    return 2;
  }
  io.stdout.write(completionScript(shell as Shell, commands(kernel, hosts), GLOBAL_FLAGS));
  return 0;
}
