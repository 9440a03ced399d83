/**
 * `--help` text for the CLI and its commands, built from data only: the host commands' flag tables and
 * the `flags` of an extension's command contribution (manifest.json). Printing a command's help never
 * imports or activates the extension that contributes it.
 */

/** One flag of a command: `name` is the long form; `aliases` other spellings; `value` the placeholder of its value. */
export interface FlagDoc {
  name: string;
  aliases?: string[];
  /** e.g. `<n>` or `text|json`; absent for a switch */
  value?: string;
  summary: string;
}

/** A command as the help shows it (a host command, or an extension's contribution). */
export interface CommandDoc {
  name: string;
  usage: string;
  summary: string;
  flags?: FlagDoc[];
}

/** Flags the CLI host reads wherever they appear (for `run`: before the prompt). */
export const GLOBAL_FLAGS: FlagDoc[] = [
  { name: "--directory", aliases: ["--dir"], value: "<dir>", summary: "the project directory (default: the current one); it must exist" },
  { name: "--home", value: "<dir>", summary: "use this home instead of $HOME: its .oceancode/ and its config, data and state dirs" },
  { name: "--db", value: "<path>", summary: "the session database (over $OC_DB and the database.path key; default: oceancode.db in the data directory)" },
  { name: "--model", aliases: ["-m"], value: "<name>", summary: "before a command: the pager's model, or handed to the command (run); provider/model, a bare id (gpt-5) or an alias (sonnet, opus, haiku)" },
  { name: "--listen", value: "<host:port>", summary: "the pager also serves the HTTP API of oceancode serve there (off loopback only with OC_SERVER_PASSWORD)" },
  { name: "--continue", aliases: ["-c"], summary: "the pager reopens this directory's latest session" },
  { name: "--resume", aliases: ["-r"], value: "[<id>]", summary: "the pager reopens this session (its id: oceancode sessions); no id: pick one of this directory's" },
  { name: "--print", aliases: ["-p"], value: "<prompt>", summary: "headless, as oceancode run (its flags before or after the prompt; the prompt may come on stdin)" },
  { name: "--tui", value: "pager", summary: "accepted (the pager is the only terminal UI)" },
  { name: "--verbose", aliases: ["-v"], summary: "info log lines, and stacks with errors" },
  { name: "--version", aliases: ["-V"], summary: "print the version and exit" },
  { name: "--help", aliases: ["-h"], summary: "this help; oceancode <command> --help for a command's flags" },
];

/** `-m, --model <provider/model>`: short spellings first. */
function label(f: FlagDoc): string {
  const names = [f.name, ...(f.aliases ?? [])].sort((a, b) => (a.startsWith("--") ? 1 : 0) - (b.startsWith("--") ? 1 : 0));
  return `${names.join(", ")}${f.value ? ` ${f.value}` : ""}`;
}

/** One line per flag, summaries in a column. */
export function flagLines(flags: readonly FlagDoc[]): string[] {
  const width = Math.max(0, ...flags.map((f) => label(f).length));
  return flags.map((f) => `  ${label(f).padEnd(width)}  ${f.summary}`);
}

/** Every spelling of a flag that takes a value (so a value that reads like `--help` is not taken for it). */
export function valueFlagNames(flags: readonly FlagDoc[]): Set<string> {
  return new Set(flags.filter((f) => f.value !== undefined).flatMap((f) => [f.name, ...(f.aliases ?? [])]));
}

/** Does a command's argv ask for help (`--help` / `-h` before any `--`, not as another flag's value)? */
export function asksForHelp(args: readonly string[], flags: readonly FlagDoc[]): boolean {
  const takesValue = valueFlagNames(flags);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
    if (takesValue.has(a)) i++;
  }
  return false;
}

/** The flags a manifest's command contribution declares (`flags`). */
export function declaredFlags(contribution: { flags?: FlagDoc[] }): FlagDoc[] | undefined {
  // the manifest schema has validated the shape before any of this runs
  return contribution.flags;
}

/** Flags named in a usage line, for a contribution that declares none (each gets a line, without a description). */
export function flagsFromUsage(usage: string, extension: string): FlagDoc[] {
  // the pager's -c/--continue and --resume are global only before a command: a command may have its own
  const global = new Set(GLOBAL_FLAGS.filter((f) => f.name !== "--continue" && f.name !== "--resume").flatMap((f) => [f.name, ...(f.aliases ?? [])]));
  const seen = new Set<string>();
  const out: FlagDoc[] = [];
  for (const m of usage.matchAll(/(?<![\w-])(--?[A-Za-z][\w-]*)(?: (<[^>]+>))?/g)) {
    const name = m[1]!;
    if (seen.has(name) || global.has(name)) continue;
    seen.add(name);
    out.push({ name, ...(m[2] ? { value: m[2] } : {}), summary: `(not described: extension '${extension}' declares no flags in its manifest)` });
  }
  return out;
}

/** The global flags that apply to every command (the others are the pager's, or say what oceancode is). */
const COMMAND_GLOBALS = new Set(["--directory", "--home", "--db", "--verbose"]);

/** The whole help of one command: usage, summary, its flags one per line, then the global flags. */
export function commandHelp(cmd: CommandDoc, flags: readonly FlagDoc[]): string {
  const own = flags.some((f) => f.name === "--help") ? flags : [...flags, { name: "--help", aliases: ["-h"], summary: "this help" }];
  const ownNames = new Set(own.flatMap((f) => [f.name, ...(f.aliases ?? [])]));
  const globals = GLOBAL_FLAGS.filter((f) => COMMAND_GLOBALS.has(f.name) && ![f.name, ...(f.aliases ?? [])].some((n) => ownNames.has(n)));
  return [`usage: ${cmd.usage}`, cmd.summary, "", "Flags:", ...flagLines(own), "", "Global flags:", ...flagLines(globals)].join("\n");
}
