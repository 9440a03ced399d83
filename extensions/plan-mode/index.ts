/**
 * Plan mode: a read-only agent stored per session (session.info.overrides.agent = "plan", saved with the
 * session so --continue keeps it). While it is on, the model is offered and allowed only reading and
 * searching tools (READ_ONLY_TOOLS), write/edit under `.oceancode/plans/` of the session's directory (real
 * paths: no `..` or symlink escapes), and plan_exit; bash, other edits, job_kill and MCP tools are denied
 * before any rule or hook can allow them. Every request carries a reminder that editing is off.
 * plan_exit asks the person "switch to the build agent?" (a form with optional comments; never
 * auto-approved): approved, the comments become user rows of the todo list (or are appended to the plan
 * file without the todos service) and the session flips to the build agent. See docs/plan-mode.md.
 */
import fs from "node:fs";
import path from "node:path";
import type { ExtensionContext, SlashHost } from "../../kernel/api.js";
import type { AuthorizeResult, EngineService, Question, QuestionReply, Session, ToolCallContext, ToolDefinition, ToolOutput } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import type { PlanModeService, TodosService } from "../todos/api.js";
import { AGENT_KEY, AGENTS, BUILD_AGENT, PLAN_AGENT, PLAN_DENY_REASON, PLAN_EXIT_TOOL, PLAN_WRITE_TOOLS, PLANS_DIR, READ_ONLY_TOOLS } from "./api.js";
import { isPlanMode } from "./kit/shared.js";
import { planWriteRefusal } from "./paths.js";

const EXT_ID = "plan-mode";

export const PLAN_REMINDER =
  `Plan mode is on: editing is off. Read and search to understand the task, then write the plan as a file under ${PLANS_DIR}/ ` +
  `(the only place you may write; bash and other edits are refused) and keep the todo list. ` +
  `When the plan is ready, call ${PLAN_EXIT_TOOL} with a short summary to ask the user to switch to the build agent.`;

/** The file a call writes, absolute (Claude-shaped input has absolute paths, after any hook rewrite). */
function targetOf(ctx: ToolCallContext): string | undefined {
  const f = ctx.claude.toolInput.file_path ?? ctx.call.input.file_path;
  return typeof f === "string" ? f : undefined;
}

/** Why plan mode refuses this call; undefined when it lets it through (to the other taps). */
export function planRefusal(ctx: ToolCallContext): string | undefined {
  const name = ctx.call.name;
  if (name === PLAN_EXIT_TOOL) return ctx.session.info.parentId ? `${PLAN_EXIT_TOOL}: only the main session can leave plan mode` : undefined;
  if (READ_ONLY_TOOLS.has(name)) return undefined;
  if (PLAN_WRITE_TOOLS.has(name)) {
    const file = targetOf(ctx);
    if (file === undefined) return `${PLAN_DENY_REASON} (plans go under ${PLANS_DIR}/)`;
    const why = planWriteRefusal(ctx.session.info.cwd || ctx.cwd, file);
    return why ? `${PLAN_DENY_REASON} (${why}; plans go under ${PLANS_DIR}/)` : undefined;
  }
  if (name === "bash") return `${PLAN_DENY_REASON} (bash is off in plan mode; read with read, grep, glob and ls)`;
  return PLAN_DENY_REASON;
}

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const storage = () => ctx.services.tryGet("storage");
    const todos = () => ctx.services.tryGet("todos");
    /** open sessions by id (plan_exit's tool context has only the session's info) */
    const open = new Map<string, Session>();
    /** the plan file the model last wrote in a session (plan_exit appends comments there without todos) */
    const planFile = new Map<string, string>();

    const setAgent = (session: Session, agent: string) => {
      if (agent === BUILD_AGENT) delete session.info.overrides[AGENT_KEY];
      else session.info.overrides[AGENT_KEY] = agent;
      storage()?.saveInfo(session.info);
    };

    engine.hooks.sessionStart.tap({ name: EXT_ID }, ({ session }) => {
      open.set(session.info.id, session);
    });
    engine.hooks.sessionEnd.tap({ name: EXT_ID }, ({ session }) => {
      open.delete(session.info.id);
      planFile.delete(session.info.id);
    });

    const service: PlanModeService = {
      async enter(session: Session, text?: string, host?: SlashHost) {
        open.set(session.info.id, session);
        const was = isPlanMode(session.info);
        setAgent(session, PLAN_AGENT);
        host?.reply(`${was ? "already in plan mode" : "plan mode on"}: editing is off; plans go under ${PLANS_DIR}/. The model asks to switch to the build agent with ${PLAN_EXIT_TOOL} (/agent build leaves now).`);
        const t = text?.trim();
        if (!t) return;
        const send = host?.prompt as ((text: string) => Promise<boolean>) | undefined;
        if (typeof send === "function") {
          if (!(await send.call(host, t))) host?.reply("a turn is running: the text was not sent (send it as a message when it ends)");
          return;
        }
        if (host) return host.reply("this host cannot send the text as a prompt: send it as a message");
        // no host (a caller that passes none): the engine runs the prompt; hosts see its events
        await engine.prompt(session, t).catch((e: unknown) => ctx.log.warn(`plan mode: the planning prompt failed (${e instanceof Error ? e.message : String(e)})`));
      },
      active: (session) => {
        const s = typeof session === "string" ? open.get(session) : session;
        return s ? isPlanMode(s.info) : false;
      },
    };
    ctx.provide("plan-mode", service);
    // `/plan` (owned by todos) enters plan mode through this service: todos cannot declare plan-mode (a cycle)
    todos()?.attachPlanMode(service);

    // the model is offered only what plan mode allows, and reminded on every request
    engine.hooks.modelRequest.tap({ name: EXT_ID, stage: "policy" }, (req, step) => {
      open.set(step.session.info.id, step.session);
      if (!isPlanMode(step.session.info)) {
        return req.tools.some((t) => t.name === PLAN_EXIT_TOOL) ? { ...req, tools: req.tools.filter((t) => t.name !== PLAN_EXIT_TOOL) } : req;
      }
      const child = step.session.info.parentId !== undefined;
      const tools = req.tools.filter((t) => READ_ONLY_TOOLS.has(t.name) || PLAN_WRITE_TOOLS.has(t.name) || (t.name === PLAN_EXIT_TOOL && !child));
      return { ...req, tools, system: [...req.system, PLAN_REMINDER] };
    });

    engine.hooks.authorizeToolCall.tap({ name: EXT_ID, stage: "mode" }, (call): AuthorizeResult | undefined => {
      if (!isPlanMode(call.session.info)) {
        return call.call.name === PLAN_EXIT_TOOL ? { action: "deny", by: EXT_ID, reason: `${PLAN_EXIT_TOOL}: the session is not in plan mode` } : undefined;
      }
      const why = planRefusal(call);
      if (why) return { action: "deny", by: EXT_ID, reason: why, rule: "plan mode" };
      // plan_exit asks its own question (never auto-approved); a permission ask on top would ask twice
      return call.call.name === PLAN_EXIT_TOOL ? { action: "allow", by: EXT_ID, reason: "plan mode's own question" } : undefined;
    });

    // again at the run, on the final input (a later tap may have rewritten the path)
    engine.hooks.executeTool.tap({ name: EXT_ID, stage: "mode" }, (next) => async (call: ToolCallContext): Promise<ToolOutput> => {
      if (!isPlanMode(call.session.info) || !PLAN_WRITE_TOOLS.has(call.call.name)) return next(call);
      const why = planRefusal(call);
      if (why) return { content: `Permission denied by ${EXT_ID}: ${why}`, isError: true };
      const out = await next(call);
      const file = targetOf(call);
      if (!out.isError && file) planFile.set(call.session.info.id, path.resolve(call.session.info.cwd, file));
      return out;
    });

    engine.tools.register(planExitTool(), ctx.id);

    function planExitTool(): ToolDefinition {
      return {
        name: PLAN_EXIT_TOOL,
        kind: "other",
        claudeName: "ExitPlanMode",
        description:
          "Plan mode only. When your plan is ready, present it and ask the user to switch to the build agent (which may edit and run). " +
          "The user approves (with optional comments, added to the plan) or rejects (stay in plan mode and revise).",
        inputSchema: {
          type: "object",
          properties: { plan: { type: "string", description: "the plan, or a short summary of it (Markdown)" } },
          additionalProperties: false,
        },
        ruleSubject: (input) => (typeof input.plan === "string" ? input.plan : ""),
        async run(input, tctx): Promise<ToolOutput> {
          const session = open.get(tctx.session.id);
          if (!session || !isPlanMode(session.info)) return { content: `${PLAN_EXIT_TOOL}: the session is not in plan mode`, isError: true };
          const plan = typeof input.plan === "string" && input.plan.trim() ? input.plan.trim() : "(no summary given)";
          const question: Question = {
            sessionId: session.info.id,
            tool: PLAN_EXIT_TOOL,
            subject: plan,
            reason: "plan ready: switch to the build agent?",
            autoApprove: false,
            fields: [
              {
                name: "comments",
                type: "string",
                title: "comments",
                description: "optional, added to the plan as your rows · enter approves the switch · esc rejects (stay in plan mode)",
                required: false,
              },
            ],
          };
          const reply: QuestionReply | undefined = await engine.ask(question, tctx.signal);
          if (reply === undefined) {
            return { content: "No one can answer here: the user must approve leaving plan mode. Stay in plan mode (the plan is kept).", isError: true };
          }
          if (reply === "reject" || (typeof reply === "object" && reply.answer === "reject")) {
            const why = typeof reply === "object" && reply.answer === "reject" ? ` (${reply.by}: ${reply.reason})` : "";
            return {
              content: `The user did not approve switching to the build agent${why}. Stay in plan mode: editing is still off. Ask what to change, revise the plan, and call ${PLAN_EXIT_TOOL} again when it is ready.`,
              isError: true,
            };
          }
          const comments = typeof reply === "object" && "values" in reply ? (reply.values.comments ?? "").trim() : "";
          const noted = comments ? addComments(session, comments) : "";
          setAgent(session, BUILD_AGENT);
          engine.notice(session.info.id, "info", "plan approved: the session is on the build agent (editing is on)");
          return {
            content:
              `The user approved the plan. The session is now on the build agent: every tool is available again; carry out the plan.` +
              (comments ? `\nThe user's comments (${noted}):\n${comments}` : ""),
          };
        },
      };
    }

    /** The person's comments as user rows of the todo list; without the todos service, appended to the plan file. Says where they went. */
    function addComments(session: Session, comments: string): string {
      const rows = comments.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
      const t = todos();
      if (t) {
        try {
          for (const content of rows) t.edit(session, { op: "add", content });
          return "added to the todo list";
        } catch (e) {
          ctx.log.warn(`plan_exit: the todo list did not take the comments (${e instanceof Error ? e.message : String(e)}); appending them to the plan file`);
        }
      }
      const cwd = session.info.cwd;
      const known = planFile.get(session.info.id);
      const file = known && planWriteRefusal(cwd, known) === undefined ? known : path.join(cwd, PLANS_DIR, `plan-${session.info.id}.md`);
      if (planWriteRefusal(cwd, file) !== undefined) return "not saved: the plan file is outside the plans folder";
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, `\n## Comments from the user\n\n${rows.map((r) => `- ${r}`).join("\n")}\n`);
      return `appended to ${path.relative(cwd, file)}`;
    }

    const sessionFor = async (id: string | undefined): Promise<Session | undefined> => (id ? (open.get(id) ?? (await engine.openSession(id).catch(() => undefined))) : undefined);

    ctx.registerSlash("agent", async (args, host) => {
      const session = await sessionFor(host.sessionId);
      if (!session) return host.reply("/agent: no open session");
      const [first = "", ...rest] = args.trim().split(/\s+/);
      const want = first.toLowerCase();
      if (!want) return host.reply(`agent: ${isPlanMode(session.info) ? PLAN_AGENT : BUILD_AGENT} (/agent plan|build switches)`);
      if (!(AGENTS as readonly string[]).includes(want)) return host.reply(`/agent: unknown agent '${want.slice(0, 40)}'; usage: /agent [plan [<description>]|build]`);
      // `/agent plan <description>` sends the description as the prompt that starts planning (as /plan <text> does)
      if (want === PLAN_AGENT) return service.enter(session, args.trim().slice(first.length).trim() || undefined, host);
      if (rest.length) return host.reply("/agent build takes no text: send it as a message");
      const was = isPlanMode(session.info);
      setAgent(session, BUILD_AGENT);
      host.reply(was ? "build agent: editing is on" : "already on the build agent");
    });
  },
};
