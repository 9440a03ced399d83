/**
 * `oceancode run` flag parsing: flags go before the prompt; a flag after it is prompt text (with a warning).
 * `oceancode -p` (print mode, Claude Code's habit) takes the same flags on both sides of the prompt.
 */
import type { FlagDoc } from "../cli/help.js";
import { flagHint } from "../cli/suggest.js";
import path from "node:path";
import type { HostSetting } from "../../kernel/api.js";
import { Usage } from "../../kernel/api.js";

export interface RunArgs {
  model?: string;
  format: "text" | "json";
  /** --output-format: Claude Code's shapes (json: one result object; stream-json: its events); absent: run's own --format */
  outputFormat?: OutputFormat;
  /** --input-format stream-json: user messages as JSON lines on stdin, one turn each */
  inputFormat: "text" | "stream-json";
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
  /** --metrics-out: write the final metrics (Prometheus text) here at exit (the host layer's metrics.out) */
  metricsOut?: string;
  /** --help / -h before the prompt */
  help?: boolean;
}

export type OutputFormat = "text" | "json" | "stream-json";

/** run's flags, one entry each: the parser and `oceancode run --help` both read this table. */
export const RUN_FLAGS: FlagDoc[] = [
  { name: "--model", aliases: ["-m"], value: "<name>", summary: "the model: provider/model, a bare id (claude-sonnet-4-6, gpt-5) or an alias (sonnet, opus, haiku) (else $OC_MODEL, else the model config key, else anthropic/claude-sonnet-4-6)" },
  { name: "--format", value: "text|json", summary: "json: one JSON event per line on stdout, oceancode's own events (default: text)" },
  { name: "--output-format", value: "text|json|stream-json", summary: "Claude Code's -p shapes: text the final answer, json one result object, stream-json its events per line" },
  { name: "--input-format", value: "text|stream-json", summary: "stream-json: user messages as JSON lines on stdin, one turn each (needs --output-format stream-json)" },
  { name: "--continue", aliases: ["-c"], summary: "resume the latest session of this directory" },
  { name: "--session", aliases: ["-s", "--resume", "-r"], value: "<id>", summary: "resume a session by id" },
  { name: "--wait", summary: "when another process has the session open, wait for it instead of refusing" },
  { name: "--auto", summary: "approve rule asks (never the shell guard's); without it every ask is rejected" },
  { name: "--tideline", aliases: ["--shelve"], value: "<pct>%|<limit>|default", summary: "the session's tideline (the context window's cut line: past it the oldest steps leave the window): a share of the model's context, a token limit, or default" },
  { name: "--max-steps", value: "<n>", summary: "steps per root turn (default 300); a turn that reaches the cap auto-continues into a fresh turn by design, so this bounds a turn, not the run: bound the run with --max-usd or --max-minutes (over $OC_MAX_STEPS and engine.max_steps; kept by --continue)" },
  { name: "--max-usd", value: "<dollars>", summary: "stop cleanly at a step boundary once the session has spent this much (over $OC_MAX_USD; kept by --continue)" },
  { name: "--max-minutes", value: "<minutes>", summary: "stop cleanly at a step boundary after this long (over $OC_MAX_MINUTES; kept by --continue)" },
  { name: "--agent", value: "plan|build", summary: "the session's agent: plan is read-only plan mode (writes only under .oceancode/plans/; kept by --continue), build edits and runs" },
  { name: "--metrics-out", value: "<file>", summary: "write the run's final metrics (Prometheus text) to this file at exit, also after an error or a bound (metrics.out)" },
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
 * run's flags that are config keys, for the host layer: --model is `model`, --max-steps is `engine.max_steps`,
 * --metrics-out is `metrics.out` (resolved against the current directory).
 * A --max-steps run refuses (its usage error) is left out, so the error is run's own.
 */
export function runHostSettings(args: RunArgs): HostSetting[] {
  const out: HostSetting[] = [];
  if (args.model !== undefined) out.push({ key: "model", value: args.model, flag: "--model" });
  if (args.maxSteps !== undefined && validMaxSteps(args.maxSteps)) out.push({ key: "engine.max_steps", value: Number(args.maxSteps), flag: "--max-steps" });
  if (args.metricsOut) out.push({ key: "metrics.out", value: path.resolve(args.metricsOut), flag: "--metrics-out" });
  return out;
}

/** One flag at argv[i] into `out`; returns the index of its last word (its value's, for a value flag). */
function applyFlag(argv: readonly string[], i: number, out: RunArgs): number {
  const a = argv[i]!;
  const eq = a.indexOf("=");
  const flag = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
  if (flag === "--window") throw Usage({ message: "--window was removed: use --tideline" });
  if (VALUE_FLAGS.has(flag)) {
    const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (v === undefined) throw Usage({ message: `${flag} needs a value` });
    const name = CANONICAL.get(flag);
    if (name === "--model") out.model = v;
    else if (name === "--format") {
      if (v !== "text" && v !== "json") throw Usage({ message: `--format must be text or json (got '${v}')` });
      out.format = v;
    } else if (name === "--output-format") {
      if (v !== "text" && v !== "json" && v !== "stream-json") throw Usage({ message: `--output-format must be text, json or stream-json (got '${v}')` });
      out.outputFormat = v;
    } else if (name === "--input-format") {
      if (v !== "text" && v !== "stream-json") throw Usage({ message: `--input-format must be text or stream-json (got '${v}')` });
      out.inputFormat = v;
    } else if (name === "--session") out.session = v;
    else if (name === "--tideline") out.tideline = v;
    else if (name === "--max-steps") out.maxSteps = v;
    else if (name === "--max-usd") out.maxUsd = v;
    else if (name === "--max-minutes") out.maxMinutes = v;
    else if (name === "--metrics-out") {
      if (!v.trim()) throw Usage({ message: "--metrics-out needs a file name" });
      out.metricsOut = v;
    } else if (name === "--agent") {
      if (v !== "plan" && v !== "build") throw Usage({ message: `--agent must be plan or build (got '${v}')` });
      out.agent = v;
    }
    return i;
  }
  if (BOOL_FLAGS.has(flag)) {
    const name = CANONICAL.get(flag);
    if (name === "--continue") out.continue = true;
    else if (name === "--wait") out.wait = true;
    else out.auto = true;
    return i;
  }
  if (flag === "--help" || flag === "-h") {
    out.help = true;
    return i;
  }
  throw Usage({ message: `unknown flag '${a}'${flagHint(a, RUN_FLAGS)}` });
}

/** A word print mode reads as a flag wherever it is (`-5 degrees` and `-` stay prompt text). */
function looksLikeFlag(a: string): boolean {
  return /^--?[A-Za-z]/.test(a);
}

/**
 * run's argv. `print` (oceancode -p): flags on both sides of the prompt, as claude -p takes them; an unknown
 * flag is a usage error wherever it is, and `--` ends the flags. Otherwise run's rule: the first word that is
 * not a flag starts the prompt, and a flag after it is prompt text (with a warning).
 */
export function parseRunArgs(argv: string[], opts: { print?: boolean } = {}): RunArgs {
  const out: RunArgs = { format: "text", inputFormat: "text", continue: false, auto: false, wait: false, prompt: "", warnings: [] };
  const words: string[] = [];
  let i = 0;
  if (opts.print) {
    for (; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === "--") {
        words.push(...argv.slice(i + 1));
        break;
      }
      if (looksLikeFlag(a)) i = applyFlag(argv, i, out);
      else words.push(a);
    }
    i = argv.length;
  }
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    i = applyFlag(argv, i, out);
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
  if (out.continue && out.session) throw Usage({ message: "--continue and --session are mutually exclusive" });
  if (out.outputFormat !== undefined && out.format === "json") throw Usage({ message: "--format json and --output-format are two output formats: give one (--format json is oceancode's own events, --output-format Claude Code's shapes)" });
  // as claude -p: messages on stdin as JSON lines answer with events as JSON lines
  if (out.inputFormat === "stream-json" && out.outputFormat !== "stream-json") throw Usage({ message: "--input-format stream-json needs --output-format stream-json" });
  return out;
}
