/**
 * The console lint: extension code logs through ctx.log / the obs logger (oceancode/api/obs), never
 * console.* (which would bypass the redactor, the log file and the pager's own sink), and writes to
 * process.stderr only where that is the program's own output (the files in STDERR_ALLOWED, with why).
 * Tests and benches (whose output is their figures) are outside it.
 */
import fs from "node:fs";
import path from "node:path";

export interface ConsoleProblem {
  file: string;
  line: number;
  text: string;
}

/** Files whose process.stderr.write is a program's own output, not logging. */
export const STDERR_ALLOWED: Readonly<Record<string, string>> = {
  "extensions/sandbox/bridge.ts": "the source of the bridge child process (its usage and spawn errors)",
  "extensions/sandbox/wrap.ts": "the source of a refusing child command (its one message, exit 126)",
  "extensions/distribution/throwaway.ts": "the source of a throwaway release's self-check",
  "extensions/distribution/release-main.ts": "the release script's own usage errors",
  "extensions/serve/client/write.ts": "the client generator script's own output",
};

const CONSOLE = /\bconsole\s*\.\s*(?:log|warn|error|info|debug|trace)\s*\(/;
const STDERR = /\bprocess\s*\.\s*stderr\s*\.\s*write\s*\(/;

function skipped(rel: string): boolean {
  return /(^|\/)(test|tests|bench|__fixtures__)\//.test(rel) || /\.test\.tsx?$/.test(rel) || /\.d\.ts$/.test(rel);
}

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules") yield* sources(p);
    } else if (/\.(?:ts|tsx|mts|js|mjs)$/.test(e.name)) yield p;
  }
}

export function checkConsole(root: string): ConsoleProblem[] {
  const out: ConsoleProblem[] = [];
  const base = path.join(root, "extensions");
  for (const file of sources(base)) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    if (skipped(rel)) continue;
    fs.readFileSync(file, "utf8")
      .split("\n")
      .forEach((text, i) => {
        const code = text.replace(/^\s*(?:\/\/|\*|\/\*).*$/, ""); // a comment may name console.warn
        if (CONSOLE.test(code) || (STDERR.test(code) && !(rel in STDERR_ALLOWED))) out.push({ file: rel, line: i + 1, text: text.trim() });
      });
  }
  return out;
}

export const formatConsoleProblem = (p: ConsoleProblem): string => `${p.file}:${p.line}: log through ctx.log / oceancode/api/obs, not console.* or process.stderr: ${p.text}`;
