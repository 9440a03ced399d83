/** `oceancode run` flag parsing: flags go before the prompt; a flag after it is prompt text (with a warning). */
export interface RunArgs {
  model?: string;
  format: "text" | "json";
  continue: boolean;
  session?: string;
  auto: boolean;
  /** wait for another process holding the session instead of refusing */
  wait: boolean;
  tideline?: string;
  maxSteps?: string;
  prompt: string;
  warnings: string[];
}

export class UsageError extends Error {}

export const RUN_USAGE =
  "usage: oceancode run [--model <provider/model>] [--format text|json] [--continue | --session <id>] [--wait] [--auto] [--tideline <pct>%|<limit>|default] [--max-steps <n>] <message…>";

const VALUE_FLAGS = new Set(["--model", "-m", "--format", "--session", "-s", "--tideline", "--shelve", "--max-steps"]);
const BOOL_FLAGS = new Set(["--continue", "-c", "--auto", "--wait"]);

export function parseRunArgs(argv: string[]): RunArgs {
  const out: RunArgs = { format: "text", continue: false, auto: false, wait: false, prompt: "", warnings: [] };
  const words: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const eq = a.indexOf("=");
    const flag = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if (flag === "--window") throw new UsageError("--window was removed: use --tideline");
    if (VALUE_FLAGS.has(flag)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      if (flag === "--model" || flag === "-m") out.model = v;
      else if (flag === "--format") {
        if (v !== "text" && v !== "json") throw new UsageError(`--format must be text or json (got '${v}')`);
        out.format = v;
      } else if (flag === "--session" || flag === "-s") out.session = v;
      else if (flag === "--tideline" || flag === "--shelve") out.tideline = v;
      else if (flag === "--max-steps") out.maxSteps = v;
      continue;
    }
    if (BOOL_FLAGS.has(flag)) {
      if (flag === "--continue" || flag === "-c") out.continue = true;
      else if (flag === "--wait") out.wait = true;
      else out.auto = true;
      continue;
    }
    throw new UsageError(`unknown flag '${a}'`);
  }
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith("-") && (VALUE_FLAGS.has(a.split("=")[0]!) || BOOL_FLAGS.has(a) || a === "--window")) {
      out.warnings.push(`'${a}' comes after the prompt, so it is sent to the model as text (put flags before the prompt)`);
    }
    words.push(a);
  }
  out.prompt = words.join(" ");
  if (out.continue && out.session) throw new UsageError("--continue and --session are mutually exclusive");
  return out;
}
