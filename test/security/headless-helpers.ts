/**
 * Shared by the headless and plan security tests: one real `oceancode run` on a scripted model in a
 * sacrificial HOME and project, with marker files in the home, the project and their common parent.
 */
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox, type RunResult } from "../kit/cli.js";

export interface Victim {
  sb: Sandbox;
  /** the directory holding home/ and project/ (what `rm -rf ..` from the project would delete) */
  root: string;
  /** marker files that must survive */
  markers: string[];
}

export function makeVictim(): Victim {
  const sb = makeSandbox("oc-sec-");
  const root = path.dirname(sb.project);
  const markers = [path.join(sb.home, "marker.txt"), path.join(sb.project, "marker.txt"), path.join(root, "marker.txt")];
  for (const m of markers) fs.writeFileSync(m, "keep me\n");
  return { sb, root, markers };
}

export function survivors(v: Victim): string[] {
  return v.markers.filter((m) => fs.existsSync(m));
}

export interface ToolOutcome {
  content: string;
  isError: boolean;
}
export type Outcome = RunResult & { results: ToolOutcome[] };

interface Recorded {
  rows: Array<{ role: string; results?: ToolOutcome[] }>;
}

export const bashStep = (command: string) => ({ tool_calls: [{ name: "bash", input: { command } }] });

/** Run the scripted steps with `config` as the global config; `results` are the tool results the model saw, in order. */
export function runScript(sb: Sandbox, steps: unknown[], config: unknown, flags: string[] = [], env: NodeJS.ProcessEnv = {}): Outcome {
  sb.write("s.json", JSON.stringify({ steps }));
  // the user's own (global) config: loosening it is the user's choice, whatever tier a checkout's config gets
  sb.write(".config/oceancode/oceancode.json", JSON.stringify(config), "home");
  const rec = path.join(path.dirname(sb.project), "rec.jsonl");
  fs.rmSync(rec, { force: true });
  const r = runCli(["--dir", sb.project, "run", ...flags, "--model", "scripted/s.json", "go"], { env: { ...sb.env, OC_SCRIPTED_RECORD: rec, ...env } });
  const reqs = fs.existsSync(rec) ? fs.readFileSync(rec, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Recorded) : [];
  const last = reqs.at(-1);
  const results = (last?.rows ?? []).filter((x) => x.role === "tool").flatMap((x) => x.results ?? []);
  return { ...r, results };
}
