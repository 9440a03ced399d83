/** Shared by the jev run tests: a sandbox with consent in both configs, a scripted model, the decision rows. */
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";

export const KEY = "sk-jev-NEVER-WRITE-ME-7731";

export interface JevSandbox extends Sandbox {
  globalCfg(cfg: object): void;
  projectCfg(cfg: object): void;
  script(steps: object[]): void;
  run(args: string[], env?: NodeJS.ProcessEnv): ReturnType<typeof runCliAsync>;
  rows(): Array<Record<string, any>>;
}

export function jevSandbox(endpoint: string): JevSandbox {
  const sb = makeSandbox("oc-jev-");
  const env = { ...sb.env, OC_JEV_ENDPOINT: endpoint, OC_TYPESAFE_API_KEY: KEY };
  return Object.assign(sb, {
    globalCfg(cfg: object) {
      sb.write(".config/oceancode/oceancode.json", JSON.stringify(cfg), "home");
    },
    projectCfg(cfg: object) {
      sb.write(".oceancode/oceancode.json", JSON.stringify(cfg));
    },
    script(steps: object[]) {
      sb.write("s.json", JSON.stringify({ steps }));
    },
    run(args: string[], extra: NodeJS.ProcessEnv = {}) {
      return runCliAsync(["run", "--format", "json", "--model", "scripted/s.json", ...args], { cwd: sb.project, env: { ...env, ...extra }, timeoutMs: 60_000 });
    },
    rows() {
      const out: Array<Record<string, any>> = [];
      const stack = [sb.home];
      while (stack.length) {
        const d = stack.pop()!;
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) stack.push(p);
          else if (e.name === "jev-decisions.jsonl") out.push(...fs.readFileSync(p, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)));
        }
      }
      return out.sort((a, b) => a.at - b.at);
    },
  });
}

/** The tool results of a run's JSON events, by call order. */
export function results(stdout: string): Array<{ content: string; isError: boolean }> {
  return stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; result?: { content: string; isError: boolean } })
    .filter((e) => e.type === "tool_call_end")
    .map((e) => ({ content: e.result!.content, isError: e.result!.isError }));
}

export const bash = (command: string) => ({ tool_calls: [{ name: "bash", input: { command } }] });

export const SAFE = {
  destructive: { type: "noul", noul: 0.02 },
  egress: { type: "noul", noul: 0.01 },
  reversible: { type: "score", score: 1.9, probabilities: [0.02, 0.06, 0.92] },
  blast_radius: { type: "choice", choice: "project" },
} as const;
export const DESTRUCTIVE = {
  destructive: { type: "noul", noul: 0.93 },
  egress: { type: "noul", noul: 0.02 },
  reversible: { type: "score", score: 0.1, probabilities: [0.9, 0.08, 0.02] },
  blast_radius: { type: "choice", choice: "project" },
} as const;
