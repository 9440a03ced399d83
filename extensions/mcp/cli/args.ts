/**
 * The mcp command's argv. Hand-rolled rather than node:util parseArgs: a value flag always takes the
 * next word, so `--arg -y` passes `-y` to the server (parseArgs refuses values that start with a dash).
 */
export const VALUE_FLAGS = ["--command", "--arg", "--env", "--url", "--header", "--scope", "--root", "--home", "--port"] as const;
export const REPEATABLE = new Set(["--arg", "--env", "--header"]);
export const SWITCHES = ["--json", "--no-browser"] as const;

export interface McpArgs {
  positional: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

export function parseMcpArgs(argv: readonly string[]): McpArgs | { error: string } {
  const out: McpArgs = { positional: [], values: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if ((VALUE_FLAGS as readonly string[]).includes(flag)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) return { error: `${flag} needs a value` };
      const list = out.values.get(flag) ?? [];
      if (list.length > 0 && !REPEATABLE.has(flag)) return { error: `${flag} given twice` };
      out.values.set(flag, [...list, v]);
      continue;
    }
    if ((SWITCHES as readonly string[]).includes(a)) {
      out.switches.add(a);
      continue;
    }
    if (a.startsWith("-") && a !== "-") return { error: `unknown option '${a}'` };
    out.positional.push(a);
  }
  return out;
}

/**
 * `K=V` pairs (the first `=` splits; with `colon`, also `K: V`, whichever comes first, as curl and
 * Claude Code write headers); an entry without a separator or with an empty key is an error.
 */
export function pairs(list: readonly string[], flag: string, colon = false): Record<string, string> | { error: string } {
  const out: Record<string, string> = {};
  for (const p of list) {
    const seps = [p.indexOf("="), colon ? p.indexOf(":") : -1].filter((x) => x >= 0);
    const i = seps.length ? Math.min(...seps) : -1;
    if (i <= 0 || p.slice(0, i).trim() === "") return { error: `${flag} takes K=V, not '${p}'` };
    out[p.slice(0, i).trim()] = p[i] === ":" ? p.slice(i + 1).trim() : p.slice(i + 1);
  }
  return out;
}
