/**
 * `oceancode claude`: Ocean pager on the Claude Code route. The model is claude-code/mirror (the Claude
 * Code settings mirror's model, else claude's own choice) unless -m names one; where claude is not
 * installed one line says how to install it.
 */
import type { Kernel } from "../boot.js";
import type { CommandIO } from "../../kernel/api.js";
import { INSTALL_HINT } from "../../extensions/claude-code/api.js";
import { locateClaude } from "../../extensions/claude-code/kit.js";


export async function main(kernel: Kernel, argv: string[], io: CommandIO, opts: { listen?: string; model?: string; version?: string }): Promise<number> {
  if (!locateClaude(io.env)) {
    io.stderr.write(`oceancode: ${INSTALL_HINT}\n`);
    return 2;
  }
  // the CLI hands -m on as a leading --model pair too (run's convention): the pager takes no arguments
  const rest = argv[0] === "--model" ? argv.slice(2) : argv;
  const model = opts.model ?? "claude-code/mirror";
  if (!model.startsWith("claude-code/")) {
    io.stderr.write(`oceancode: oceancode claude runs claude-code/… models (got '${model}'); for another model use oceancode -m ${model}\n`);
    return 2;
  }
  const pagerModule = "../pager/main.js"; // a variable: the pager host is optional in a build
  const pager = (await import(pagerModule).catch(() => undefined)) as { main: (k: Kernel, a: string[], i: CommandIO, o: object) => Promise<number> } | undefined;
  if (!pager) {
    io.stderr.write("oceancode: Ocean pager is not available in this build\n");
    return 2;
  }
  return pager.main(kernel, rest, io, { listen: opts.listen, model, version: opts.version });
}
