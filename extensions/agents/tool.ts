/**
 * The `agent` tool, Claude Code's `Task` ({subagent_type, description, prompt, run_in_background?}):
 * resolves the agent, runs it as a child session (run.ts) and returns its final text; in the background
 * it returns a job id at once (a task job in the tools' job table, read with job_output) and the child
 * runs on, cancelled by job_kill, by an interrupt of any later turn of its parent, or when the parent closes.
 */
import type { SessionInfo, ToolDefinition } from "../engine/api.js";
import { AGENT_TOOL, AGENT_TOOL_CLAUDE_NAME, type AgentsService } from "./api.js";
import { outcomeOutput, runChild } from "./run.js";
import type { ModelAliases } from "./resolve.js";
import type { EngineService } from "../engine/api.js";

/** Background children by parent session id: aborted when a turn of the parent is interrupted or it closes. */
export class BackgroundChildren {
  private readonly byParent = new Map<string, Set<AbortController>>();

  add(parentId: string, c: AbortController): () => void {
    let set = this.byParent.get(parentId);
    if (!set) this.byParent.set(parentId, (set = new Set()));
    set.add(c);
    return () => {
      set.delete(c);
      if (!set.size) this.byParent.delete(parentId);
    };
  }

  /** Tie the parent's running turn to its background children (called from engine.userPrompt). */
  follow(parentId: string, signal: AbortSignal): void {
    signal.addEventListener("abort", () => this.cancel(parentId), { once: true });
  }

  cancel(parentId: string): void {
    for (const c of this.byParent.get(parentId) ?? []) c.abort();
  }
}

const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));

/** What an untrusted agent may pick from, and where its refusal is logged. */
export interface AgentTrustOptions {
  /** the models the user configured (config `model`, `subagent.model`) */
  configured(): string[];
  warn(msg: string): void;
  /** model aliases from the provider manifests */
  aliases?: ModelAliases;
}

/** `baseModel`: the parent's sub-agent model (what a child whose agent names none runs on); default the parent's model. */
export function createAgentTool(engine: EngineService, agents: AgentsService, background: BackgroundChildren, baseModel?: (parent: SessionInfo) => string, trust?: AgentTrustOptions): ToolDefinition {
  return {
    name: AGENT_TOOL,
    claudeName: AGENT_TOOL_CLAUDE_NAME,
    kind: "other",
    description:
      "Start a sub-agent from the <available_agents> list in the system prompt on one task. It works on its own with its own instructions and tools and sees only your prompt, so give it the whole task and what to report; its final answer is this tool's result. run_in_background: true returns a job id at once; read the answer with job_output.",
    inputSchema: {
      type: "object",
      properties: {
        subagent_type: { type: "string", description: 'the agent\'s name as listed (e.g. "general-purpose")' },
        description: { type: "string", description: "a short (3-5 word) description of the task" },
        prompt: { type: "string", description: "the task for the agent to perform" },
        run_in_background: { type: "boolean", description: "return a job id at once and run the agent in the background (default false)" },
      },
      required: ["subagent_type", "description", "prompt"],
      additionalProperties: false,
    },
    ruleSubject: (input) => str(input.subagent_type),
    toClaudeInput: (input) => ({ ...input }),
    fromClaudeInput: (input) => ({ ...input }),
    async run(input, ctx) {
      const name = str(input.subagent_type);
      const agent = agents.resolve(name);
      if (!agent) {
        const names = agents
          .list()
          .filter((a) => a.invocable)
          .map((a) => a.qualifiedName);
        return { content: `no agent named '${name}'; available: ${names.join(", ")}`, isError: true };
      }
      const prompt = str(input.prompt);
      const gate = { trusted: agents.trusted?.(agent) === true, configured: trust?.configured() ?? [], ...(trust ? { warn: trust.warn } : {}), ...(trust?.aliases ? { aliases: trust.aliases } : {}) };
      if (!prompt.trim()) return { content: "agent: 'prompt' is required: the whole task for the sub-agent", isError: true };
      if (input.run_in_background !== true) return outcomeOutput(agent, await runChild(engine, { agent, prompt, parent: ctx.session, base: baseModel?.(ctx.session), signal: ctx.signal, ...gate }));

      // imported here: `oceancode inspect` loads this extension and must not load the tools' code
      const { startTaskJob } = await import("../tools/kit.js");
      const controller = new AbortController();
      const job = startTaskJob(ctx.state, { command: `agent ${agent.qualifiedName}: ${str(input.description)}`, cancel: () => controller.abort(), session: ctx.session });
      const forget = background.add(ctx.session.id, controller);
      // this turn's interrupt stops it too (later turns: BackgroundChildren.follow)
      ctx.signal.addEventListener("abort", () => controller.abort(), { once: true });
      void runChild(engine, { agent, prompt, parent: ctx.session, base: baseModel?.(ctx.session), signal: controller.signal, ...gate })
        .then((o) => {
          const out = outcomeOutput(agent, o);
          if (o.reason === "aborted") {
            // a late result is recorded as cancelled; it never restarts the parent
            job.end("killed");
            return;
          }
          job.write(out.content);
          job.end(out.isError ? 1 : 0);
        })
        .catch((e: unknown) => {
          job.write(`sub-agent '${agent.qualifiedName}' failed: ${e instanceof Error ? e.message : String(e)}`);
          job.end(1);
        })
        .finally(forget);
      return {
        content: `started sub-agent '${agent.qualifiedName}' in the background as ${job.id}; read its answer with job_output {"job_id": "${job.id}"} (wait_ms to wait for it)`,
        metadata: { agent: agent.id, job_id: job.id },
      };
    },
  };
}
