/**
 * `oceancode <command> --help` for every command `oceancode --help` lists: exit 0, a usage line, one line
 * per flag (the command's own, then the global ones), from data only: an extension whose code throws
 * still shows its help, and nothing of it runs.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-help-");
});
afterEach(() => sb.cleanup());

const oc = (...args: string[]) => runCli(["--dir", sb.project, ...args], { env: sb.env, cwd: sb.project });

/** The command names in `oceancode --help` (the pager's "(none)" row aside). */
function listedCommands(): string[] {
  const r = oc("--help");
  expect(r.code).toBe(0);
  const body = r.stdout.split("\nCommands:\n")[1]!.split("\n\n")[0]!;
  return body.split("\n").map((l) => l.trim().split(/\s+/)[0]!).filter((n) => n !== "(none)");
}

/** The lines of one section (`Flags:` or `Global flags:`) of a help text. */
function section(help: string, title: string): string[] {
  const after = help.split(`\n${title}\n`)[1];
  expect(after, `${title} in:\n${help}`).toBeDefined();
  return after!.split("\n\n")[0]!.split("\n").filter((l) => l !== "");
}

/** Flags named in a usage line: `--json`, `-o`, … */
const usageFlags = (usage: string) => [...new Set([...usage.matchAll(/(?<![\w-])(--?[A-Za-z][\w-]*)/g)].map((m) => m[1]!))];

/** Each line is `  <spelling>[, <spelling>…] [<value>]  <summary>`: the spellings of one line. */
const spellings = (line: string) => line.trim().split(/\s{2,}/)[0]!.split(", ").map((s) => s.split(" ")[0]!);

describe("--help of every command", () => {
  it("exit 0, a usage line, then each flag on a line of its own with a summary", () => {
    const names = listedCommands();
    expect(names).toEqual(expect.arrayContaining(["run", "sessions", "export", "hooks", "inspect", "doctor", "key", "auth", "trust", "migrate", "ledger", "permissions"]));
    for (const name of names) {
      for (const flag of ["--help", "-h"]) {
        const r = oc(name, flag);
        expect(r.code, `${name} ${flag}: ${r.stderr}`).toBe(0);
        expect(r.stderr, `${name} ${flag}`).toBe("");
        const first = r.stdout.split("\n")[0]!;
        expect(first.startsWith(`usage: oceancode ${name}`), first).toBe(true);
        const own = section(r.stdout, "Flags:");
        const global = section(r.stdout, "Global flags:");
        const all = [...own, ...global];
        for (const line of all) expect(line, `${name}: ${line}`).toMatch(/^ {2}-\S.*\S {2,}\S/); // flag, then its summary
        const shown = all.map((l) => new Set(spellings(l)));
        for (const f of [...usageFlags(first), "--help", "--directory", "--db", "--verbose"]) {
          expect(shown.filter((s) => s.has(f)), `${name}: one line for ${f}\n${r.stdout}`).toHaveLength(1);
        }
      }
    }
  });

  it("run --help: its flag table, one line each, and the global flags", () => {
    const r = oc("run", "--help");
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").slice(0, 2)).toEqual(["usage: oceancode run [flags] <message…>", "one headless session turn, then exit"]);
    const own = section(r.stdout, "Flags:").map((l) => l.trim().split(/\s{2,}/)[0]);
    expect(own).toEqual([
      "-m, --model <name>",
      "--format text|json",
      "--output-format text|json|stream-json",
      "--input-format text|stream-json",
      "-c, --continue",
      "-s, -r, --session, --resume <id>",
      "--wait",
      "--auto",
      "--tideline, --shelve <pct>%|<limit>|default",
      "--max-steps <n>",
      "--max-usd <dollars>",
      "--max-minutes <minutes>",
      "--agent plan|build",
      "--metrics-out <file>",
      "-h, --help",
    ]);
    expect(section(r.stdout, "Global flags:").map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(["--directory, --dir <dir>", "--home <dir>", "--db <path>", "-v, --verbose"]);
    // the product's words come with a plain gloss (finding 55); the step cap says it continues (finding 56)
    const line = (flag: string) => section(r.stdout, "Flags:").find((l) => l.trim().startsWith(flag)) ?? "";
    expect(line("--tideline")).toContain("the context window's cut line");
    expect(line("--max-steps")).toContain("auto-continues into a fresh turn");
    // after a flag's value, and before the prompt, --help is still help; after the prompt it is text
    expect(oc("run", "-m", "scripted/echo", "--help").stdout).toContain("\nFlags:\n");
    const text = oc("run", "-m", "scripted/echo", "say", "--help");
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("ok: say --help\n");
  });

  it("a usage error in run prints the short usage and where the flags are", () => {
    const r = oc("run", "--bogus", "hi");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("oceancode run: unknown flag '--bogus'\nusage: oceancode run [flags] <message…>  (oceancode run --help lists the flags)\n");
  });

  it("an extension's command help comes from its manifest: its activate() that throws never runs", () => {
    const dir = path.join(sb.home, ".oceancode", "extensions", "thrower");
    fs.mkdirSync(dir, { recursive: true });
    const flags = [{ name: "--loud", aliases: ["-l"], summary: "shout it" }, { name: "--times", value: "<n>", summary: "how many times" }];
    fs.writeFileSync(
      path.join(dir, "manifest.json"),
      JSON.stringify({ id: "thrower", version: "1.0.0", kernel: "^0.1.0", main: "index.js", contributes: { commands: [{ name: "yell", usage: "oceancode yell [--loud] [--times <n>] <word>", summary: "yell a word", flags }] } }),
    );
    fs.writeFileSync(path.join(dir, "index.js"), 'export default { activate() { throw new Error("thrower ran"); } };\n');
    const help = oc("yell", "--times", "2", "--help");
    expect(help.code).toBe(0);
    expect(help.stderr).toBe("");
    expect(section(help.stdout, "Flags:")).toEqual(["  -l, --loud   shout it", "  --times <n>  how many times", "  -h, --help   this help"]);
    // the value of --times that reads like --help is a value, not a request for help: the command runs (and fails)
    const run = oc("yell", "--times", "--help", "x");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("thrower ran");
  });
});
