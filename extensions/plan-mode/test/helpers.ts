/** Shared by the plan-mode tests: one real `oceancode run` on a scripted model, with what the model was offered and told. */
import fs from "node:fs";
import path from "node:path";
import { runCli, type RunResult, type Sandbox } from "../../../test/kit/cli.js";

export interface ToolOutcome {
  name: string;
  content: string;
  isError: boolean;
}
export interface Request {
  system: string[];
  tools: string[];
  rows: Array<{ role: string; results?: ToolOutcome[] }>;
}
export type Outcome = RunResult & { requests: Request[]; results: ToolOutcome[] };

export const call = (name: string, input: Record<string, unknown>) => ({ tool_calls: [{ name, input }] });

/** `oceancode run [flags] --model scripted/<script> go` in the sandbox's project; the model's requests are recorded. */
export function runPlan(sb: Sandbox, steps: unknown[], flags: string[], script = "s.json"): Outcome {
  sb.write(script, JSON.stringify({ steps }));
  const rec = path.join(path.dirname(sb.project), `rec-${script}.jsonl`);
  fs.rmSync(rec, { force: true });
  const r = runCli(["--dir", sb.project, "run", ...flags, "--model", `scripted/${script}`, "go"], { env: { ...sb.env, OC_SCRIPTED_RECORD: rec } });
  const requests = fs.existsSync(rec) ? fs.readFileSync(rec, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Request) : [];
  const last = requests.at(-1);
  const results = (last?.rows ?? []).filter((x) => x.role === "tool").flatMap((x) => x.results ?? []);
  return { ...r, requests, results };
}
