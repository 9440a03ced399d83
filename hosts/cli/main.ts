#!/usr/bin/env node
/**
 * `oceancode`'s entry: small on purpose, because every module it imports statically is start-up time.
 * It runs the version switch, answers a bare `--version` and a bare `--help` whose cached text is still
 * right (help-cache.ts), and otherwise loads the CLI (cli.ts) and hands it the argv.
 */
import nodeModule from "node:module";
import { runCurrentVersion } from "./launcher.js";
import { cachedHelp, helpCacheLocation, HELP_CACHE_FORMAT, modifiedMs, packageVersion, signature } from "./help-cache.js";

// Node >= 22.1 caches compiled code on disk between runs; Node 20 has no such API (feature-detected)
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** Write `text` to stdout and exit: 0, or 141 when the reader went away (as the CLI's own paths do). */
function answer(text: string): void {
  let gone = false;
  process.stdout.on("error", () => (gone = true));
  process.stdout.write(text, (e) => process.exit(e || gone ? 141 : 0));
}

const argv = process.argv.slice(2);
// an update switched <data dir>/versions/current to another version: that one runs (launcher.ts)
const switched = await runCurrentVersion(argv, packageVersion);
if (switched !== undefined) process.exit(switched);

const only = argv.length === 1 ? argv[0] : undefined;
const help = only === "--help" || only === "-h";
const cached = help ? cachedHelp() : undefined;
if (only === "--version" || only === "-V") answer(`oceancode ${packageVersion()}\n`);
else if (cached !== undefined) answer(cached);
else {
  // a plain --help the cache could not answer records what it reads, for the next one
  const where = help ? helpCacheLocation() : undefined;
  const recording = where ? (await import("./help-record.js")).recordHelp({ ...where, format: HELP_CACHE_FORMAT, signature, modifiedMs }) : undefined;
  const { runCli } = await import("./cli.js");
  runCli(argv, recording);
}
