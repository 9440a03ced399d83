/** `oceancode key [<provider>] [<api-key>]` and `oceancode auth [status [--json]]`. */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import type { CredentialsService } from "./api.js";
import { createPrompter, readAll } from "./prompt.js";
import { noKeyReason } from "./providers.js";
import { providerStatuses, statusTable } from "./status.js";

const KEY_USAGE = "usage: oceancode key [<provider>] [<api-key>]   (one argument: an Anthropic key; no key: asked on a terminal, else read from stdin)";
const AUTH_USAGE = "usage: oceancode auth [status [--json]]   (on a terminal it asks; otherwise pipe \"<provider> <api-key>\" on stdin; status lists every provider's credentials)";

export interface CommandDeps {
  credentials: CredentialsService;
  /** the providers that take a key we store (the table's and what manifests contribute), for telling a provider name from a key */
  providers(): string[];
  /** every provider auth knows or a manifest contributes, keyed or not, for `auth status` */
  allProviders(): string[];
  /** the providers a manifest contributes */
  installed(): Set<string>;
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
  // no part of the key is printed back (a masked tail still leaks into scrollback and logs)
  io.stdout.write(`stored the ${provider} key (${key.length} characters) in ${deps.credentials.file}\n`);
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
  const refused = args.length >= 1 ? noKeyReason(args[0]!) : undefined;
  if (refused) {
    io.stderr.write(`oceancode key: ${refused}\n`);
    return 2;
  }
  if (args.length === 2) {
    const [provider, key] = args as [string, string];
    if (!known.includes(provider)) {
      io.stderr.write(`oceancode key: unknown provider '${provider}' (known: ${known.join(", ")})\n${KEY_USAGE}\n`);
      return 2;
    }
    return store(deps, io, "key", provider, key.trim());
  }
  // one argument: a provider name (key asked or on stdin) or an Anthropic key
  const provider = args.length === 1 && known.includes(args[0]!) ? args[0]! : "anthropic";
  if (args.length === 1 && provider !== args[0]) return store(deps, io, "key", provider, args[0]!.trim());
  if (io.stdin.isTTY) return askKey(deps, io, provider);
  return store(deps, io, "key", provider, (await readAll(io.stdin)).trim());
}

/** On a terminal: the key typed without echo. */
async function askKey(deps: CommandDeps, io: CommandIO, provider: string): Promise<number> {
  const prompter = createPrompter(io.stdin, io.stdout);
  try {
    const key = (await prompter.ask(`${provider} API key (input hidden): `, true)).trim();
    return store(deps, io, "key", provider, key);
  } catch (e) {
    io.stderr.write(`oceancode key: ${(e as Error).message}; nothing stored\n`);
    return 1;
  } finally {
    prompter.close();
  }
}

function statusCommand(deps: CommandDeps, argv: string[], io: CommandIO): number {
  let json = false;
  try {
    json = parseArgs({ args: argv, options: { json: { type: "boolean" } }, allowPositionals: false, strict: true }).values.json === true;
  } catch (e) {
    io.stderr.write(`oceancode auth status: ${(e as Error).message}\n${AUTH_USAGE}\n`);
    return 2;
  }
  const rows = providerStatuses(deps.credentials, deps.allProviders(), deps.installed(), io.env);
  io.stdout.write(json ? JSON.stringify({ file: deps.credentials.file, providers: rows }, null, 2) + "\n" : statusTable(rows));
  return 0;
}

export async function authCommand(deps: CommandDeps, argv: string[], io: CommandIO): Promise<number> {
  if (argv[0] === "status") return statusCommand(deps, argv.slice(1), io);
  const args = positionals("auth", argv, io, AUTH_USAGE);
  if (!args) return 2;
  if (args.length) {
    io.stderr.write(`oceancode auth: takes no arguments but status (use oceancode key <provider> <api-key>)\n${AUTH_USAGE}\n`);
    return 2;
  }
  const known = deps.providers();
  if (!io.stdin.isTTY) {
    const words = (await readAll(io.stdin)).trim().split(/\s+/).filter(Boolean);
    if (words.length !== 2 || !known.includes(words[0]!)) {
      io.stderr.write(
        `oceancode auth: stdin is not a terminal, so it cannot ask. Pipe "<provider> <api-key>" (providers: ${known.join(", ")}), ` +
          `run oceancode key <provider> <api-key>, or set ${known.map((p) => deps.credentials.envVar(p)).join(" / ")} (oceancode auth status lists each provider's credentials)\n`,
      );
      return 2;
    }
    return store(deps, io, "auth", words[0]!, words[1]!);
  }
  const prompter = createPrompter(io.stdin, io.stdout);
  try {
    const status = new Map(providerStatuses(deps.credentials, known, deps.installed(), io.env).map((r) => [r.provider, r.text]));
    const menu = known.map((p, i) => `  ${i + 1}) ${p}  (${status.get(p)})`).join("\n");
    const others = providerStatuses(deps.credentials, deps.allProviders().filter((p) => !known.includes(p)), deps.installed(), io.env);
    io.stdout.write("API key login (a Claude Pro/Max subscription login is not available in this build).\n");
    if (others.length) io.stdout.write(`Taking no key here:\n${others.map((r) => `  ${r.provider}: ${r.text}`).join("\n")}\n`);
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
