/**
 * The pager's `!cmd` and `/command` over HTTP.
 * - POST /session/:id/shell runs a shell command of the user's through the engine's runTool: the bash tool
 *   exactly as a model's call runs it (permission rules and modes, the shell guard, an ask as a question
 *   answered over HTTP, the sandbox), never around it. Like the pager, its output goes with the session's
 *   next prompt as context (no model call is made now), unless `attach` is false.
 * - POST /session/:id/command runs a slash command through the kernel (whichever extension contributes it,
 *   as `run "/undo"` does), with a host that collects its replies.
 */
import type { SlashHost } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import { type RouteDefinition } from "./api.js";
import { HttpError } from "./kit/shared.js";
import { errorResponses, SessionIdParams } from "./schemas.js";
import type { SessionHub } from "./sessions.js";

export interface CommandDeps {
  engine: EngineService;
  hub: SessionHub;
  /** the kernel's slash dispatch (ExtensionContext.runSlash); false: no extension contributes it */
  runSlash(name: string, args: string, host: SlashHost): Promise<boolean>;
}

/** a shell command's output attached to the next prompt, at most (the rest is cut, and the cut said) */
export const SHELL_CONTEXT_MAX_CHARS = 64 * 1024;

const SLASH = /^\/?([A-Za-z0-9:_-]+)(?:\s+([\s\S]*))?$/;

export function commandRoutes(d: CommandDeps): RouteDefinition[] {
  return [
    {
      method: "POST",
      url: "/session/:id/shell",
      operationId: "sessionShell",
      summary: "Run a shell command of the user's (the pager's !cmd) through the bash tool's permission and sandbox path; its output goes with the next prompt",
      tags: ["session"],
      schema: {
        params: SessionIdParams,
        body: {
          type: "object",
          required: ["command"],
          additionalProperties: false,
          properties: {
            command: { type: "string", minLength: 1, maxLength: 100_000 },
            attach: { type: "boolean", default: true, description: "attach the output to the session's next prompt as context (default true)" },
          },
          examples: [{ command: "git status --short" }],
        },
        response: {
          200: {
            type: "object",
            required: ["command", "content", "isError", "attached"],
            properties: {
              command: { type: "string" },
              content: { type: "string", description: "the output as the model would see it (or why it was refused)" },
              isError: { type: "boolean", description: "it failed, or was refused (a rule, the shell guard, a rejected question)" },
              attached: { type: "boolean", description: "it goes with the next prompt" },
            },
          },
          ...errorResponses(404, 409),
        },
      },
      handler: async (req) => {
        const id = req.params.id!;
        const { command, attach = true } = req.body as { command: string; attach?: boolean };
        const session = await req.session(id);
        const r = await d.engine.runTool(session, { name: "bash", input: { command } }, { signal: req.signal });
        if (attach) {
          const how = r.isError ? "it failed or was refused" : "its output";
          const out = r.content.length > SHELL_CONTEXT_MAX_CHARS ? `${r.content.slice(0, SHELL_CONTEXT_MAX_CHARS)}\n[cut at ${SHELL_CONTEXT_MAX_CHARS} of ${r.content.length} characters]` : r.content;
          d.hub.carry(id, `The user ran a shell command of their own (not a request to you): \`${command}\`; ${how}:\n${out}`);
        }
        return { command, content: r.content, isError: r.isError === true, attached: attach };
      },
    },
    {
      method: "POST",
      url: "/session/:id/command",
      operationId: "sessionCommand",
      summary: "Run a slash command against the session (/undo, /limits usd 5, ...), as `run \"/cmd\"` does; its replies are the answer",
      tags: ["session"],
      schema: {
        params: SessionIdParams,
        body: {
          type: "object",
          required: ["command"],
          additionalProperties: false,
          properties: { command: { type: "string", minLength: 1, maxLength: 10_000, description: "the command line, with or without its leading /" } },
          examples: [{ command: "/undo" }],
        },
        response: {
          200: {
            type: "object",
            required: ["name", "ok", "replies"],
            properties: {
              name: { type: "string" },
              ok: { type: "boolean", description: "false: the command refused or failed (error says why)" },
              replies: { type: "array", items: { type: "string" } },
              error: { type: "string" },
            },
          },
          ...errorResponses(404, 409),
        },
      },
      handler: async (req) => {
        const id = req.params.id!;
        const m = SLASH.exec((req.body as { command: string }).command.trim());
        if (!m) throw new HttpError(400, "invalid_command", "a slash command is /<name> [args] (name: letters, digits, : _ -)");
        const name = m[1]!;
        const session = await req.session(id);
        const replies: string[] = [];
        let error: string | undefined;
        const host: SlashHost = {
          hostKind: "serve",
          sessionId: session.info.id,
          cwd: session.info.cwd,
          reply: (t: string) => void replies.push(t),
          fail: (t: string) => {
            error = t;
          },
          currentModel: () => session.info.model,
          busy: () => d.hub.busy(id).running !== undefined,
        };
        if (!(await d.runSlash(name, (m[2] ?? "").trim(), host))) throw new HttpError(404, "unknown_command", `no enabled extension contributes /${name}`);
        return { name, ok: error === undefined, replies, ...(error !== undefined ? { error } : {}) };
      },
    },
  ];
}
