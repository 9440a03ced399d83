/** `oceancode key [<provider>] [<api-key>]` and `oceancode auth`. */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import type { CredentialsService } from "./api.js";
import { createPrompter, readAll } from "./prompt.js";

const KEY_USAGE = "usage: oceancode key [<provider>] [<api-key>]   (one argument: an Anthropic key; no key: read from stdin)";
const AUTH_USAGE = "usage: oceancode auth   (on a terminal it asks; otherwise pipe \"<provider> <api-key>\" on stdin)";

export interface CommandDeps {
  credentials: CredentialsService;
  /** provider ids that extensions contribute (manifests), for telling a provider name from a key */
  providers(): string[];
}

/** Show enough of a key to recognise it, never the key. */
export function maskKey(key: string): string {
  return key.length <= 8 ? "…" : `${key.slice(0, 3)}…${key.slice(-4)}`;
}

/** Why a key cannot be stored (the CLI and POST /auth/:provider refuse the same), or undefined. */
export function checkKey(key: string): string | undefined {
  if (!key) return "the key is empty";
  if (/\s/.test(key)) return "the key contains whitespace (paste only the key)";
  if (key.length > 4096) return "the key is longer than 4096 characters";
  return undefined;
}

function store(deps: CommandDeps, io: CommandIO, cmd: string, provider: string, key: string): number {
  const bad = checkKey(key);
  if (bad) {
    io.stderr.write(`oceancode ${cmd}: ${bad}\n`);
    return 2;
  }
  try {
    deps.credentials.set(provider, key);
  } catch (e) {
    io.stderr.write(`oceancode ${cmd}: ${(e as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`stored the ${provider} key (${maskKey(key)}) in ${deps.credentials.file}\n`);
  const envVar = deps.credentials.envVar(provider);
  if (io.env[envVar]) io.stdout.write(`note: ${envVar} is set in this environment and wins over auth.json\n`);
  return 0;
}

function positionals(cmd: string, argv: string[], io: CommandIO, usage: string): string[] | undefined {
  try {
    return parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true }).positionals;
  } catch (e) {
    io.stderr.write(`oceancode ${cmd}: ${(e as Error).message}\n${usage}\n`);
    return undefined;
  }
}

export async function keyCommand(deps: CommandDeps, argv: string[], io: CommandIO): Promise<number> {
  const args = positionals("key", argv, io, KEY_USAGE);
  if (!args) return 2;
  if (args.length > 2) {
    io.stderr.write(`oceancode key: too many arguments\n${KEY_USAGE}\n`);
    return 2;
  }
  const known = deps.providers();
  if (args.length === 2) {
    const [provider, key] = args as [string, string];
    if (!known.includes(provider)) {
      io.stderr.write(`oceancode key: unknown provider '${provider}' (known: ${known.join(", ")})\n${KEY_USAGE}\n`);
      return 2;
    }
    return store(deps, io, "key", provider, key.trim());
  }
  // one argument: a provider name (key on stdin) or an Anthropic key
  const provider = args.length === 1 && known.includes(args[0]!) ? args[0]! : "anthropic";
  if (args.length === 1 && provider !== args[0]) return store(deps, io, "key", provider, args[0]!.trim());
  if (io.stdin.isTTY) {
    io.stderr.write(`oceancode key: no key given (pass it as an argument, pipe it on stdin, or run oceancode auth)\n${KEY_USAGE}\n`);
    return 2;
  }
  return store(deps, io, "key", provider, (await readAll(io.stdin)).trim());
}

export async function authCommand(deps: CommandDeps, argv: string[], io: CommandIO): Promise<number> {
  const args = positionals("auth", argv, io, AUTH_USAGE);
  if (!args) return 2;
  if (args.length) {
    io.stderr.write(`oceancode auth: takes no arguments (use oceancode key <provider> <api-key>)\n${AUTH_USAGE}\n`);
    return 2;
  }
  const known = deps.providers();
  if (!io.stdin.isTTY) {
    const words = (await readAll(io.stdin)).trim().split(/\s+/).filter(Boolean);
    if (words.length !== 2 || !known.includes(words[0]!)) {
      io.stderr.write(
        `oceancode auth: stdin is not a terminal, so it cannot ask. Pipe "<provider> <api-key>" (providers: ${known.join(", ")}), ` +
          `run oceancode key <provider> <api-key>, or set ${deps.credentials.envVar("anthropic")} / ${deps.credentials.envVar("openai")}\n`,
      );
      return 2;
    }
    return store(deps, io, "auth", words[0]!, words[1]!);
  }
  const prompter = createPrompter(io.stdin, io.stdout);
  try {
    const menu = known.map((p, i) => `  ${i + 1}) ${p}`).join("\n");
    io.stdout.write("API key login (a Claude Pro/Max subscription login is not available in this build).\n");
    const choice = (await prompter.ask(`Which provider?\n${menu}\nprovider [1]: `)).trim();
    const provider = choice === "" ? known[0]! : (known[Number(choice) - 1] ?? (known.includes(choice) ? choice : undefined));
    if (!provider) {
      io.stderr.write(`oceancode auth: unknown provider '${choice}' (known: ${known.join(", ")})\n`);
      return 2;
    }
    const key = (await prompter.ask(`${provider} API key (input hidden): `, true)).trim();
    return store(deps, io, "auth", provider, key);
  } catch (e) {
    io.stderr.write(`oceancode auth: ${(e as Error).message}; nothing stored\n`);
    return 1;
  } finally {
    prompter.close();
  }
}
