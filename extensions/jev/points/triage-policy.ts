/** Point 4's deterministic env_missing signals, its question and its policy (pure). */
import fs from "node:fs";
import path from "node:path";
import type { JevAnswer, JevQuestion } from "../api.js";

export const TRIAGE_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  failure: {
    type: "choice",
    instructions:
      "The shell command `command` failed with exit code `exit_code`; `output` is its failing output. Is the failure flaky (a timeout, a race, a network blip: the same command may pass when re-run), env_missing (a tool, module or service the command needs is not installed or not available), or a real_failure of the code or the command itself?",
    options: ["flaky", "env_missing", "real_failure"],
  },
};

/** The failing output sent: at most this many bytes (the tail). */
export const OUTPUT_MAX = 12 * 1024;

/** The exit code of a bash result ("exit code: N" is its last line). */
export function exitCodeOf(content: string): number | undefined {
  const m = /exit code: (\d+)[^\n]*\s*$/.exec(content);
  return m ? Number(m[1]) : undefined;
}

/** A deterministic env_missing signal: the missing name (or undefined name: "a command"), else undefined. */
export function envMissing(command: string, content: string, code: number | undefined): { name?: string } | undefined {
  let m = /(?:^|\n)(?:[\w./-]+: )?(?:line \d+: )?([\w.+-]+): (?:command )?not found/.exec(content);
  if (m) return { name: m[1] };
  m = /ModuleNotFoundError: No module named '([^']+)'/.exec(content) ?? /Cannot find module '([^']+)'/.exec(content) ?? /Error: Cannot find package '([^']+)'/.exec(content);
  if (m) return { name: m[1] };
  const first = command.trim().split(/\s+/)[0] ?? "";
  if (first && new RegExp(`${first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: No such file or directory`).test(content) && !first.includes("/")) return { name: first };
  if (code === 127) return {};
  return undefined;
}

const ALTERNATIVES: Readonly<Record<string, readonly string[]>> = {
  python: ["python3"],
  python3: ["python"],
  pip: ["pip3", "python3 -m pip"],
  pip3: ["pip"],
  yarn: ["npm"],
  pnpm: ["npm"],
  bun: ["node"],
  rg: ["grep"],
  fd: ["find"],
  ag: ["grep"],
  gsed: ["sed"],
  vim: ["vi"],
  pytest: ["python3 -m pytest"],
  tsc: ["npx tsc"],
};

export function onPath(bin: string, envPath = process.env.PATH ?? ""): boolean {
  for (const d of envPath.split(path.delimiter)) {
    if (!d) continue;
    try {
      fs.accessSync(path.join(d, bin), fs.constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** The guide's hint line. */
export function hintLine(name: string | undefined, code: number | undefined, envPath?: string): string {
  const alt = name ? ALTERNATIVES[name]?.find((a) => onPath(a.split(" ")[0]!, envPath)) : undefined;
  return `jev triage: ${name ?? "a command"} is not available (exit ${code ?? "?"}); use what the project already has${alt ? ` — ${alt} is available` : ""} and do not install anything the task did not ask for`;
}

export function triageVerdict(answers: Readonly<Record<string, JevAnswer>>, thr: (name: string, fallback: number) => number): "rerun" | "hint" | "pass" {
  const a = answers.failure;
  if (a?.type !== "choice") return "pass";
  if (a.choice === "flaky" && (a.probabilities.flaky ?? a.confidence) >= thr("triage_flaky", 0.6)) return "rerun";
  if (a.choice === "env_missing" && (a.probabilities.env_missing ?? a.confidence) >= thr("triage_env_missing", 0.6)) return "hint";
  return "pass";
}
