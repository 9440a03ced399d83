/** `oceancode run` flag parsing: flags go before the prompt; a flag after it is prompt text (with a warning). */
import type { FlagDoc } from "../cli/help.js";
import { flagHint } from "../cli/suggest.js";
import type { HostSetting } from "../../kernel/config.js";

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
  /** --max-usd: the spend bound (the bounds extension reads it from the session) */
  maxUsd?: string;
  /** --max-minutes: the clock bound */
  maxMinutes?: string;
  prompt: string;
  warnings: string[];
  /** --agent plan|build: the session's agent (plan: read-only plan mode, the plan-mode extension) */
  agent?: string;
  /** --help / -h before the prompt */
  help?: boolean;
}

export class UsageError extends Error {}

/** run's flags, one entry each: the parser and `oceancode run --help` both read this table. */
export const RUN_FLAGS: FlagDoc[] = [
  { name: "--model", aliases: ["-m"], value: "<name>", summary: "the model: provider/model, a bare id (claude-sonnet-4-6, gpt-5) or an alias (sonnet, opus, haiku) (else $OC_MODEL, else the model config key, else anthropic/claude-sonnet-4-6)" },
  { name: "--format", value: "text|json", summary: "json: one JSON event per line on stdout (default: text)" },
  { name: "--continue", aliases: ["-c"], summary: "resume the latest session of this directory" },
  { name: "--session", aliases: ["-s"], value: "<id>", summary: "resume a session by id" },
  { name: "--wait", summary: "when another process has the session open, wait for it instead of refusing" },
  { name: "--auto", summary: "approve rule asks (never the shell guard's); without it every ask is rejected" },
  { name: "--tideline", aliases: ["--shelve"], value: "<pct>%|<limit>|default", summary: "the session's tideline" },
  { name: "--max-steps", value: "<n>", summary: "steps per root turn (over $OC_MAX_STEPS and engine.max_steps; kept by --continue)" },
  { name: "--max-usd", value: "<dollars>", summary: "stop cleanly at a step boundary once the session has spent this much (over $OC_MAX_USD; kept by --continue)" },
  { name: "--max-minutes", value: "<minutes>", summary: "stop cleanly at a step boundary after this long (over $OC_MAX_MINUTES; kept by --continue)" },
  { name: "--agent", value: "plan|build", summary: "the session's agent: plan is read-only plan mode (writes only under .oceancode/plans/; kept by --continue), build edits and runs" },
  { name: "--help", aliases: ["-h"], summary: "this help" },
];

export const RUN_USAGE_LINE = "oceancode run [flags] <message…>";
/** What a usage error prints after its message: the short usage and where the flags are listed. */
export const RUN_USAGE = `usage: ${RUN_USAGE_LINE}  (oceancode run --help lists the flags)`;

/** A flag's long name from any of its spellings. */
const CANONICAL = new Map(RUN_FLAGS.flatMap((f) => [f.name, ...(f.aliases ?? [])].map((n) => [n, f.name] as const)));
const VALUE_FLAGS = new Set(RUN_FLAGS.filter((f) => f.value !== undefined).flatMap((f) => [f.name, ...(f.aliases ?? [])]));
const BOOL_FLAGS = new Set(RUN_FLAGS.filter((f) => f.value === undefined && f.name !== "--help").flatMap((f) => [f.name, ...(f.aliases ?? [])]));

/** The bound flags: after the prompt they are ignored (sent as text) with their own warning. */
const BOUND_FLAGS = new Set(["--max-usd", "--max-minutes", "--max-steps", "--tideline", "--shelve"]);

/** --max-usd / --max-minutes: a number above 0 (decimals allowed), else undefined. */
export function parseBoundValue(v: string): number | undefined {
  const t = v.trim().replace(/^\$/, "");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** --max-steps must be a whole number above 0: true when it is. */
export function validMaxSteps(v: string): boolean {
  return /^\d+$/.test(v) && Number(v) > 0;
}

/**
 * run's flags that are config keys, for the host layer: --model is `model`, --max-steps is `engine.max_steps`.
 * A --max-steps run refuses (its usage error) is left out, so the error is run's own.
 */
export function runHostSettings(args: RunArgs): HostSetting[] {
  const out: HostSetting[] = [];
  if (args.model !== undefined) out.push({ key: "model", value: args.model, flag: "--model" });
  if (args.maxSteps !== undefined && validMaxSteps(args.maxSteps)) out.push({ key: "engine.max_steps", value: Number(args.maxSteps), flag: "--max-steps" });
  return out;
}

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
      const name = CANONICAL.get(flag);
      if (name === "--model") out.model = v;
      else if (name === "--format") {
        if (v !== "text" && v !== "json") throw new UsageError(`--format must be text or json (got '${v}')`);
        out.format = v;
      } else if (name === "--session") out.session = v;
      else if (name === "--tideline") out.tideline = v;
      else if (name === "--max-steps") out.maxSteps = v;
      else if (name === "--max-usd") out.maxUsd = v;
      else if (name === "--max-minutes") out.maxMinutes = v;
      else if (name === "--agent") {
        if (v !== "plan" && v !== "build") throw new UsageError(`--agent must be plan or build (got '${v}')`);
        out.agent = v;
      }
      continue;
    }
    if (BOOL_FLAGS.has(flag)) {
      const name = CANONICAL.get(flag);
      if (name === "--continue") out.continue = true;
      else if (name === "--wait") out.wait = true;
      else out.auto = true;
      continue;
    }
    if (flag === "--help" || flag === "-h") {
      out.help = true;
      continue;
    }
    throw new UsageError(`unknown flag '${a}'${flagHint(a, RUN_FLAGS)}`);
  }
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith("-") && BOUND_FLAGS.has(a.split("=")[0]!)) {
      out.warnings.push(`'${a}' comes after the prompt, so the bound is ignored and sent to the model as text (put bound flags before the prompt)`);
    } else if (a.startsWith("-") && (VALUE_FLAGS.has(a.split("=")[0]!) || BOOL_FLAGS.has(a) || a === "--window")) {
      out.warnings.push(`'${a}' comes after the prompt, so it is sent to the model as text (put flags before the prompt)`);
    }
    words.push(a);
  }
  out.prompt = words.join(" ");
  if (out.continue && out.session) throw new UsageError("--continue and --session are mutually exclusive");
  return out;
}
