/** The plugin command's argv: positionals plus the flags it knows (`--flag value` or `--flag=value`). */

export const VALUE_FLAGS = ["--root", "--marketplace", "--from"] as const;
export const SWITCHES = ["--trust", "--off", "--dry-run", "--no-repo-trust", "--json"] as const;

export interface ParsedArgs {
  positional: string[];
  values: Partial<Record<(typeof VALUE_FLAGS)[number], string>>;
  switches: Set<(typeof SWITCHES)[number]>;
}

export function parseArgs(argv: readonly string[]): ParsedArgs | { error: string } {
  const out: ParsedArgs = { positional: [], values: {}, switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith("--")) {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(0, eq) : a;
    const vf = VALUE_FLAGS.find((f) => f === name);
    if (vf) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === "") return { error: `${name} needs a value` };
      out.values[vf] = v;
      continue;
    }
    const sw = SWITCHES.find((f) => f === a);
    if (!sw) return { error: `unknown option '${a}'` };
    out.switches.add(sw);
  }
  return out;
}
