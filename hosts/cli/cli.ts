/**
 * `oceancode`: the CLI host, loaded by the entry (main.ts) when it cannot answer alone. Dispatches to the
 * host shapes (pager, run) and to the subcommands that extensions contribute. `--help` reads manifests
 * only; `--version` boots nothing.
 */
import fs from "node:fs";
import path from "node:path";
import type { Kernel } from "../boot.js";
import type { CommandIO } from "../../kernel/api.js";
import { visible } from "../terminal/sanitize.js";
import { sanitizingLogger, terminalSafe } from "../terminal/writer.js";
import { EXIT_PIPE_GONE, flushed, pipeGone, watchPipe } from "../terminal/pipe.js";
import { parseRunArgs, RUN_FLAGS, RUN_USAGE_LINE, runHostSettings } from "../run/args.js";
import { ATTACH_FLAGS, ATTACH_SUMMARY, ATTACH_USAGE_LINE } from "../attach/args.js";
import type { HostSetting } from "../../kernel/api.js";
import { didYouMean, flagHint, mistypedFlag } from "./suggest.js";
import { COMPLETION_DOC } from "./completion.js";
import type { HelpRecording } from "./help-record.js";
import { packageVersion } from "./help-cache.js";
import { asksForHelp, commandHelp, declaredFlags, flagLines, flagsFromUsage, GLOBAL_FLAGS, valueFlagNames, type CommandDoc, type FlagDoc } from "./help.js";

/** A host module (run, pager, serve, acp) exports `main`. */
type HostMain = (kernel: Kernel, argv: string[], io: CommandIO, opts: { listen?: string; model?: string; continue?: boolean; resume?: string; version?: string; print?: boolean }) => Promise<number>;

const HOST_COMMANDS: Array<CommandDoc & { module: string; flags: FlagDoc[] }> = [
  { name: "run", usage: RUN_USAGE_LINE, summary: "one headless session turn, then exit", module: "../run/main.js", flags: RUN_FLAGS },
  { name: "attach", usage: ATTACH_USAGE_LINE, summary: ATTACH_SUMMARY, module: "../attach/main.js", flags: ATTACH_FLAGS },
  { name: "claude", usage: "oceancode claude", summary: "open Ocean pager on the Claude Code route (claude-code/…: a Claude Pro/Max subscription through the claude CLI)", module: "../claude/main.js", flags: [{ name: "--help", aliases: ["-h"], summary: "this help" }] },
];
/** A host's module (a path from this file's compiled place, dist/hosts/cli/): the bundle may put this file in a chunk. */
const hostUrl = (module: string): string => new URL(module, import.meta.url).href;
/** run's flags that take a value: the word after one is not the prompt */
const RUN_VALUE_FLAGS = valueFlagNames(RUN_FLAGS);
/** every spelling of run's flags (before -p they are run's, as claude takes them) */
const RUN_FLAG_NAMES = new Set(RUN_FLAGS.flatMap((f) => [f.name, ...(f.aliases ?? [])]));

interface Globals {
  verbose: boolean;
  project?: string;
  /** how the project flag was spelled (--dir or --directory), for its error */
  projectFlag?: string;
  home?: string;
  db?: string;
  listen?: string;
  tui?: string;
  /** -m/--model before any command: the pager's model (handed on to a command that follows) */
  model?: string;
  help: boolean;
  version: boolean;
  /** -c/--continue: the pager reopens this directory's latest session */
  continue?: boolean;
  /** -r/--resume [id]: the pager reopens this session; "" opens the picker over this directory's sessions */
  resume?: string;
  /** -p/--print: headless, as `run` (Claude Code's habit) */
  print?: boolean;
}

const GLOBAL_VALUE_FLAGS: Record<string, keyof Globals> = {
  "--dir": "project",
  "--directory": "project",
  "--home": "home",
  "--db": "db",
  "--listen": "listen",
  "--tui": "tui",
};
/** value flags that are global only before the command word (after it they are the command's own) */
const LEADING_VALUE_FLAGS: Record<string, keyof Globals> = { "--model": "model", "-m": "model" };
/** -r/--resume [id]: the pager's; without an id (or with a flag next) the picker opens ("" below) */
const RESUME_FLAGS = new Set(["-r", "--resume"]);

function usageLine(): string {
  return "usage: oceancode [--db <path>] [--directory <dir>] [--listen <host:port>] [--tui pager] [-m/--model <name>] [-c/--continue | -r/--resume [<id>]] [-v] [-p <prompt>] [<command> [args…]]";
}

/** Is this `oceancode [flags] -p …`: a -p/--print before any command word (values of value flags skipped)? */
function printMode(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-p" || a === "--print") return true;
    if (a === "--" || !a.startsWith("-")) return false;
    if (!a.includes("=") && (Object.hasOwn(GLOBAL_VALUE_FLAGS, a) || Object.hasOwn(LEADING_VALUE_FLAGS, a) || RUN_VALUE_FLAGS.has(a))) i++;
  }
  return false;
}

/**
 * Pull the global flags out of argv. For `run`, scanning stops at the first word that is not a flag
 * (flags after the prompt are prompt text). `-p`/`--print` is `run` in print mode: run's flags before it
 * (-c, --resume, --output-format …) are handed to run, and flags after the prompt stay flags.
 */
export function splitGlobals(argv: string[]): { globals: Globals; sub?: string; rest: string[]; error?: string } {
  const globals: Globals = { verbose: false, help: false, version: false };
  const rest: string[] = [];
  /** run's flags given before -p */
  const lead: string[] = [];
  const print = printMode(argv);
  let sub: string | undefined;
  let stop = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (stop) {
      rest.push(a);
      continue;
    }
    if (a === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const eq = a.indexOf("=");
    const flag = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if (print && !sub) {
      if (a === "-p" || a === "--print") {
        sub = "run";
        globals.print = true;
        continue;
      }
      // before -p, run's own flags (and the pager's -c/--resume, which are run's --continue/--session here)
      if (flag !== "--model" && flag !== "-m" && flag !== "--help" && flag !== "-h" && RUN_FLAG_NAMES.has(flag)) {
        lead.push(a);
        if (eq < 0 && RUN_VALUE_FLAGS.has(flag) && i + 1 < argv.length) lead.push(argv[++i]!);
        continue;
      }
    }
    const key = Object.hasOwn(GLOBAL_VALUE_FLAGS, flag) ? GLOBAL_VALUE_FLAGS[flag] : !sub && Object.hasOwn(LEADING_VALUE_FLAGS, flag) ? LEADING_VALUE_FLAGS[flag] : undefined;
    if (key) {
      const v = eq > 0 && a.startsWith("--") ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === "") return { globals, sub, rest, error: `${flag} needs a value` };
      (globals as unknown as Record<string, unknown>)[key] = v;
      if (key === "project") globals.projectFlag = flag;
      continue;
    }
    if (a === "-v" || a === "--verbose") {
      globals.verbose = true;
      continue;
    }
    if (!sub && (a === "--help" || a === "-h")) {
      globals.help = true;
      continue;
    }
    if (!sub && (RESUME_FLAGS.has(flag) || a.startsWith("--resume="))) {
      const next = argv[i + 1];
      globals.resume = a.startsWith("--resume=") ? a.slice("--resume=".length) : next !== undefined && !next.startsWith("-") ? argv[++i]! : "";
      continue;
    }
    if (!sub && (a === "-c" || a === "--continue")) {
      globals.continue = true;
      continue;
    }
    if (!sub && (a === "--version" || a === "-V")) {
      globals.version = true;
      continue;
    }
    if (!sub) {
      if (a.startsWith("-")) return { globals, sub, rest, error: `unknown option '${a}'${flagHint(a, GLOBAL_FLAGS)}` };
      sub = a;
      continue;
    }
    if (sub === "run" && !globals.print && !a.startsWith("-")) stop = true;
    if (sub === "run" && (a === "--help" || a === "-h")) globals.help = true;
    rest.push(a);
    // run's value flags: their value is not the first word of the prompt
    if (sub === "run" && RUN_VALUE_FLAGS.has(a) && i + 1 < argv.length) rest.push(argv[++i]!);
  }
  return { globals, sub, rest: [...lead, ...rest] };
}

/**
 * The command line's settings for the kernel's host config layer (over every config file; never environment
 * variables, so a child a tool spawns does not inherit a flag): --db is `database.path`, -m/--model (and run's
 * --max-steps) are `model` and `engine.max_steps`; --directory and --home are kernel options (Paths), kept on the layer for inspect.
 */
export function hostSettings(globals: Globals, sub: string | undefined, args: string[]): HostSetting[] {
  const out: HostSetting[] = [];
  if (globals.project !== undefined) out.push({ key: "paths.project", value: path.resolve(globals.project), flag: globals.projectFlag ?? "--directory", config: false });
  if (globals.home !== undefined) out.push({ key: "paths.home", value: path.resolve(globals.home), flag: "--home", config: false });
  if (globals.db) out.push({ key: "database.path", value: path.resolve(globals.db), flag: "--db" });
  if (sub === "run") {
    try {
      out.push(...runHostSettings(parseRunArgs(args, { print: globals.print })));
    } catch {
      // a usage error: run reports it itself
    }
  } else if (globals.model !== undefined) out.push({ key: "model", value: globals.model, flag: "--model" });
  return out;
}

/**
 * Set on the paths whose work is all awaited by the time main returns (run, --help, --version): the kernel
 * has shut down (every extension's shutdown hook awaited: the ledger settled, the database flushed and
 * closed), so the process exits once stdout and stderr have drained, without node's teardown of the heap
 * (~70 ms measured after `run "hi"`). The pager and extension commands keep node's own exit.
 */
let exitWhenDone = false;

/** Exit with `code` once everything written to stdout and stderr is handed to the OS ('exit' listeners still run). */
function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  for (const s of [process.stdout, process.stderr]) {
    if (s.destroyed || s.writableEnded) done();
    else s.write("", () => done()); // called after every earlier write completed (or failed: nothing more to wait for)
  }
}

async function main(argv: string[], helpRecording: HelpRecording | undefined): Promise<number> {
  const { globals, sub, rest, error } = splitGlobals(argv);
  if (globals.version && !sub) {
    exitWhenDone = true;
    process.stdout.write(`oceancode ${packageVersion()}\n`);
    return 0;
  }
  if (error) {
    process.stderr.write(`oceancode: ${visible(error)}\n${usageLine()}\n`);
    return 2;
  }
  if ((globals.continue || globals.resume !== undefined) && sub) {
    process.stderr.write(`oceancode: ${globals.continue ? "-c/--continue" : "-r/--resume"} is the pager's (oceancode ${globals.continue ? "-c" : "-r [<id>]"}); for ${visible(sub)} put it after the command if it takes one\n${usageLine()}\n`);
    return 2;
  }
  if (globals.tui !== undefined && globals.tui !== "pager") {
    process.stderr.write(
      globals.tui === "ocean"
        ? "oceancode: the native TUI was removed; oceancode starts Ocean pager\n"
        : `oceancode: unknown --tui '${visible(globals.tui)}' (only 'pager' is accepted)\n`,
    );
    return 2;
  }
  if (globals.project !== undefined) {
    // a project that does not exist is a usage error, before anything boots or is recorded
    const dir = path.resolve(globals.project);
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) {
      process.stderr.write(`oceancode: ${globals.projectFlag ?? "--directory"} ${visible(dir)}: ${stat ? "not a directory" : "no such directory"}\n`);
      return 2;
    }
  }
  // `oceancode -m x run …` means `oceancode run -m x …`; for any other command -m is only the host layer's `model`
  const host = HOST_COMMANDS.find((h) => h.name === sub);
  const args = host && globals.model !== undefined ? ["--model", globals.model, ...rest] : rest;
  const { bootKernel, reportError } = await import("../boot.js");
  let kernel: Kernel;
  const settings = hostSettings(globals, sub, args);
  try {
    kernel = await bootKernel({
      project: globals.project,
      home: globals.home,
      verbose: globals.verbose,
      tolerant: sub === "doctor" || sub === "inspect",
      settings,
    });
  } catch (e) {
    return reportError(e, globals.verbose);
  }
  // the host layer is under requirements.json's pins: a flag a pin overrides is said, never silently dropped
  for (const s of settings) {
    const p = s.config === false ? undefined : kernel.config.sourceOf(s.key);
    if (p?.layer === "requirements" && JSON.stringify(kernel.config.get(s.key)) !== JSON.stringify(s.value)) process.stderr.write(`oceancode: warning: ${s.flag} ignored: ${s.key} is pinned by ${visible(p.file ?? "requirements.json")}\n`);
  }
  // from here on (extensions activate later, on use) an error line about an extension names its directory
  kernel.setLogger(sanitizingLogger(globals.verbose, process.stderr));
  // a command's help comes from data (its flag table or its manifest): no extension code is imported
  const contributed = sub && !host ? kernel.commands().find((c) => c.name === sub) : undefined;
  const flags = host?.flags ?? (contributed ? (declaredFlags(contributed) ?? flagsFromUsage(contributed.usage, contributed.extension)) : undefined);
  // run and attach parse their own --help; `claude` (the pager on a route) takes no other argument
  if (flags && (globals.help || ((!host || host.name === "claude") && asksForHelp(rest, flags)))) {
    exitWhenDone = true;
    const cmd = host ?? contributed!;
    process.stdout.write(`${visible(commandHelp(cmd, flags))}\n`); // manifests' text is shown safely
    return 0;
  }
  if (globals.help && !sub) {
    exitWhenDone = true;
    const lines = [`oceancode ${packageVersion()}: a coding agent`, "", usageLine(), "", "Commands:"];
    const all = [
      { name: "(none)", usage: "oceancode", summary: "open Ocean pager on a fresh session" },
      ...HOST_COMMANDS,
      COMPLETION_DOC,
      ...kernel.commands().filter((c) => !c.hidden),
    ];
    const width = Math.max(...all.map((c) => c.name.length));
    for (const c of all) lines.push(`  ${c.name.padEnd(width)}  ${c.summary}`);
    lines.push("", "Global flags:", ...flagLines(GLOBAL_FLAGS), "", "oceancode <command> --help lists a command's flags.");
    const text = `${visible(lines.join("\n"))}\n`; // summaries come from extensions' manifests
    helpRecording?.finish(text); // the next plain --help is served from the cache while its inputs stay the same
    process.stdout.write(text);
    return 0;
  }
  // V8 settings for work that may run long (a session, a command); --help and --version never load node:v8
  await import("./v8-flags.js");
  const io: CommandIO = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    project: kernel.paths.project,
    home: kernel.paths.home,
    verbose: globals.verbose,
  };
  try {
    if (!sub) {
      const pagerModule = "../pager/main.js"; // a variable: the pager host is optional in a build
      const pager = (await import(hostUrl(pagerModule)).catch(() => undefined)) as { main: HostMain } | undefined;
      if (!pager) {
        process.stderr.write("oceancode: Ocean pager is not available in this build; use oceancode run\n");
        return 2;
      }
      return await pager.main(kernel, rest, io, { listen: globals.listen, model: globals.model, version: packageVersion(), ...(globals.continue ? { continue: true } : {}), ...(globals.resume !== undefined ? { resume: globals.resume } : {}) });
    }
    if (sub === "completion" || sub === "__complete") {
      exitWhenDone = true;
      const { completionCommand } = await import("./completion-command.js");
      return await completionCommand(kernel, sub, rest, io, HOST_COMMANDS);
    }
    if (host) {
      exitWhenDone = true;
      const mod = (await import(hostUrl(host.module))) as { main: HostMain };
      return await mod.main(kernel, args, io, { listen: globals.listen, version: packageVersion(), ...(globals.model !== undefined ? { model: globals.model } : {}), ...(globals.print ? { print: true } : {}) });
    }
    // an extension command's output is untrusted text too: made visible on a terminal and on a pipe; a data
    // format (manifest "output": "data", e.g. export) is exact when redirected
    const exact = contributed?.output === "data";
    const cmdIo: CommandIO = { ...io, stdout: terminalSafe(io.stdout, { exactWhenRedirected: exact }), stderr: terminalSafe(io.stderr) };
    // a flag one slip away from one the manifest declares (`--jsno`): said before the command runs
    const slip = contributed && flags && declaredFlags(contributed) ? mistypedFlag(args, flags) : undefined;
    if (slip) {
      process.stderr.write(`oceancode ${visible(sub)}: unknown flag '${visible(slip.arg)}'${slip.hint}\nusage: ${visible(contributed!.usage.replace(/^usage: /, ""))}\n`);
      return 2;
    }
    const code = await kernel.runCommand(sub, args, cmdIo);
    if (code === undefined) {
      const names = [...HOST_COMMANDS.map((h) => h.name), COMPLETION_DOC.name, ...kernel.commands().filter((c) => !c.hidden).map((c) => c.name)];
      process.stderr.write(`oceancode: unknown command '${visible(sub)}'${visible(didYouMean(sub, names))}\n${usageLine()}\n(see oceancode --help)\n`);
      return 2;
    }
    return code;
  } catch (e) {
    return reportError(e, globals.verbose);
  } finally {
    await kernel.shutdown().catch(() => undefined);
  }
}

/** Run the CLI on `argv`; `helpRecording` (a plain --help the cache did not answer) records its inputs. */
export function runCli(argv: string[], helpRecording?: HelpRecording): void {
  // a reader that went away (`oceancode sessions | head`) is no crash: the command finishes, then exits 141
  watchPipe(process.stdout);
  watchPipe(process.stderr);

  main(argv, helpRecording).then(
    async (code) => {
      // a pipe's write error comes back asynchronously: only once what was written is flushed is it known
      if (code === 0) await flushed(process.stdout);
      if (code === 0 && pipeGone(process.stdout)) code = EXIT_PIPE_GONE;
      process.exitCode = code;
      if (exitWhenDone) exitAfterFlush(code);
    },
    (e: unknown) => {
      process.stderr.write(`oceancode: internal error: ${visible(String(e))}\n`);
      process.exitCode = 1;
    },
  );
}
