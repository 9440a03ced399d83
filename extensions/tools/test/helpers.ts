/** A real ToolContext over temp dirs for calling tool definitions directly. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolContext, ToolDefinition, ToolOutput, SpawnSpec } from "../../engine/api.js";
import { createTools, toolsOptions } from "../tools.js";
import type { ToolsOptions } from "../api.js";

export interface Harness {
  root: string;
  project: string;
  home: string;
  dataDir: string;
  opts: ToolsOptions;
  tools: Map<string, ToolDefinition>;
  state: Map<string, unknown>;
  spawned: SpawnSpec[];
  call(tool: string, input: Record<string, unknown>, extra?: { signal?: AbortSignal; cwd?: string; callId?: string }): Promise<ToolOutput>;
  file(rel: string, content?: string | Buffer): string;
  cleanup(): void;
}

let callSeq = 0;

export function harness(over: Partial<ToolsOptions> & { prepareEnv?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv } = {}): Harness {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "oc-tools-")));
  const project = path.join(root, "project");
  const home = path.join(root, "home");
  const dataDir = path.join(home, ".local", "share", "oceancode");
  for (const d of [project, home, dataDir]) fs.mkdirSync(d, { recursive: true });
  const { prepareEnv, ...rest } = over;
  const opts = toolsOptions({ project, home, dataDir, useRipgrep: false, ...rest });
  const tools = new Map(createTools(opts).map((t) => [t.name, t]));
  const state = new Map<string, unknown>();
  const spawned: SpawnSpec[] = [];
  const sessionId = `ses_${process.pid}_${++callSeq}`;
  return {
    root,
    project,
    home,
    dataDir,
    opts,
    tools,
    state,
    spawned,
    async call(tool, input, extra = {}) {
      const def = tools.get(tool);
      if (!def) throw new Error(`no tool ${tool}`);
      const id = extra.callId ?? `call_${++callSeq}`;
      const ctx: ToolContext = {
        session: { id: sessionId, cwd: project, model: "scripted/echo", createdAt: Date.now(), overrides: {} },
        call: { id, name: tool, input },
        cwd: extra.cwd ?? project,
        signal: extra.signal ?? new AbortController().signal,
        state,
        async prepareSpawn(spec) {
          const env = spec.env ?? { ...process.env };
          const full: SpawnSpec = { ...spec, env: prepareEnv ? prepareEnv(env) : env };
          spawned.push(full);
          return full;
        },
      };
      return def.run(input, ctx);
    },
    file(rel, content = "") {
      const p = path.join(project, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
      return p;
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Is the process running? A zombie (exited, not yet reaped by its new parent) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

export async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
