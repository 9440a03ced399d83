/**
 * The hooks extension's HTTP routes, the guide's five (mounted by the serve host through service "routes"):
 * GET /hooks, POST /hooks/reload, POST /trust/repo {on}, POST /hooks {event, matcher, command, timeout?, scope}
 * and POST /hooks/remove {path, event, matcher, target}. Every one answers the `hooks list --json` document
 * ({repo_trusted, sources}) after it is done. Adding and removing edit the same three Claude Code settings
 * files `oceancode hooks add|remove` edit (settings-edit.ts), and no other file: a remove's `path` must be
 * one of them. Repo trust is the trust store's `repo` switch (`oceancode trust repo on|off`).
 */
import { TIERS } from "../../kernel/api.js";
import { ERROR_SCHEMA, type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import { type TrustService } from "../trust/api.js";
import { isTrustFileError } from "../trust/kit.js";
import { HOOK_EVENTS, type HookEvent, type HooksReport } from "./api.js";
import { matcherIsValid } from "./matcher.js";
import { addHandler, removeHandler, scopeFile, SettingsFileError, type Scope } from "./settings-edit.js";

export interface HookRouteDeps {
  /** re-read every source (trust applied) and report */
  reload(): Promise<HooksReport>;
  trust: TrustService | undefined;
  project: string;
  home: string;
}

const SCOPES = ["user", "project", "local"] as const;

const handlerSchema: JsonSchema = {
  type: "object",
  required: ["event", "matcher", "type"],
  properties: {
    event: { type: "string", enum: [...HOOK_EVENTS] },
    matcher: { type: "string", description: '"" = every tool or source' },
    type: { type: "string", enum: ["command", "http"] },
    command: { type: "string" },
    url: { type: "string" },
    timeout: { type: "number", description: "seconds" },
  },
};

export const hooksReportSchema: JsonSchema = {
  type: "object",
  required: ["repo_trusted", "sources"],
  properties: {
    repo_trusted: { type: "boolean", description: "the project's repo tier is trusted (its hooks run)" },
    sources: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "tier", "ecosystem", "status", "skipped", "shared_with_claude_code", "handlers"],
        properties: {
          path: { type: "string" },
          tier: { type: "string", enum: [...TIERS] },
          ecosystem: { type: "string" },
          plugin: { type: "string" },
          status: { type: "string", enum: ["loaded", "held: everything off", "held: untrusted", "held: disabled plugin", "unreadable", "invalid"] },
          error: { type: "string" },
          skipped: { type: "integer", minimum: 0, description: "handlers of a type or event this runner does not implement" },
          shared_with_claude_code: { type: "boolean" },
          handlers: { type: "array", items: handlerSchema },
        },
      },
    },
  },
  examples: [{ repo_trusted: false, sources: [{ path: "/work/app/.claude/settings.json", tier: "repo", ecosystem: "claude_code", status: "held: untrusted", skipped: 0, shared_with_claude_code: true, handlers: [{ event: "PreToolUse", matcher: "Bash", type: "command", command: "./scripts/guard.sh" }] }] }],
};

const event = { type: "string", enum: [...HOOK_EVENTS] };
const matcher = { type: "string", maxLength: 1000, description: "a regular expression; absent or \"\" = every tool or source" };
const command = { type: "string", minLength: 1, maxLength: 10_000 };

function badMatcher(m: string | undefined): void {
  if (m !== undefined && !matcherIsValid(m)) throw new HttpError(400, "invalid_matcher", `matcher '${m.slice(0, 200)}' is not a valid regular expression`);
}

/** A settings file that cannot be edited (not JSON, hooks not an object): 409, nothing written. */
function edit<T>(what: () => T): T {
  try {
    return what();
  } catch (e) {
    if (SettingsFileError.is(e)) throw new HttpError(409, "settings_file_invalid", e.message);
    throw e;
  }
}

export function hookRoutes(d: HookRouteDeps): RouteDefinition[] {
  const tags = ["hooks"];
  const answer = { 200: hooksReportSchema };
  return [
    {
      method: "GET",
      url: "/hooks",
      operationId: "hooksList",
      summary: "Every hook source (loaded or held) and its handlers, and whether the repo tier is trusted (what `oceancode hooks list --json` prints)",
      tags,
      schema: { response: answer },
      handler: () => d.reload(),
    },
    {
      method: "POST",
      url: "/hooks/reload",
      operationId: "hooksReload",
      summary: "Re-read every hook source now (what /hooks reload does)",
      tags,
      schema: { response: answer },
      handler: () => d.reload(),
    },
    {
      method: "POST",
      url: "/trust/repo",
      operationId: "trustRepo",
      summary: "Trust or distrust this project's repo tier (its hooks and .mcp.json servers), as `oceancode trust repo on|off` does; answers the hooks document after the reload",
      tags: ["trust"],
      schema: {
        body: { type: "object", required: ["on"], additionalProperties: false, properties: { on: { type: "boolean" } }, examples: [{ on: true }] },
        response: { ...answer, 409: ERROR_SCHEMA, 503: ERROR_SCHEMA },
      },
      handler: async (req) => {
        const trust = d.trust;
        if (!trust) throw new HttpError(503, "trust_unavailable", "no enabled extension provides the trust store; see oceancode inspect");
        const on = (req.body as { on: boolean }).on;
        try {
          trust.update(d.project, (t) => {
            t.repo = on;
          });
        } catch (e) {
          if (isTrustFileError(e)) throw new HttpError(409, "trust_file_invalid", e.message);
          throw e;
        }
        return d.reload();
      },
    },
    {
      method: "POST",
      url: "/hooks",
      operationId: "hooksAdd",
      summary: "Add a command handler to one of Claude Code's settings files (scope user, project or local), as `oceancode hooks add` does",
      tags,
      schema: {
        body: {
          type: "object",
          required: ["event", "command"],
          additionalProperties: false,
          properties: {
            event,
            matcher,
            command,
            timeout: { type: "number", exclusiveMinimum: 0, maximum: 86_400, description: "seconds" },
            scope: { type: "string", enum: [...SCOPES], default: "project", description: "user: ~/.claude/settings.json; project: .claude/settings.json; local: .claude/settings.local.json" },
          },
          examples: [{ event: "PreToolUse", matcher: "Bash", command: "./scripts/guard.sh", timeout: 10, scope: "project" }],
        },
        response: { ...answer, 409: ERROR_SCHEMA },
      },
      handler: async (req) => {
        const b = req.body as { event: HookEvent; matcher?: string; command: string; timeout?: number; scope?: Scope };
        badMatcher(b.matcher);
        edit(() => addHandler(scopeFile(b.scope ?? "project", d.project, d.home), b.event, b.matcher, b.command, b.timeout));
        return d.reload();
      },
    },
    {
      method: "POST",
      url: "/hooks/remove",
      operationId: "hooksRemove",
      summary: "Remove a command handler from a settings file (`path`: one of the three settings files, as GET /hooks lists it; `target`: the handler's command)",
      tags,
      schema: {
        body: {
          type: "object",
          required: ["path", "event", "target"],
          additionalProperties: false,
          properties: { path: { type: "string", minLength: 1, maxLength: 4096 }, event, matcher, target: command },
          examples: [{ path: "/work/app/.claude/settings.json", event: "PreToolUse", matcher: "Bash", target: "./scripts/guard.sh" }],
        },
        response: { ...answer, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA },
      },
      handler: async (req) => {
        const b = req.body as { path: string; event: HookEvent; matcher?: string; target: string };
        const file = SCOPES.map((s) => scopeFile(s, d.project, d.home)).find((f) => f === b.path);
        if (!file) throw new HttpError(400, "not_a_settings_file", `'${b.path.slice(0, 300)}' is not one of the settings files hooks are added to (${SCOPES.map((s) => scopeFile(s, d.project, d.home)).join(", ")})`);
        badMatcher(b.matcher);
        if (!edit(() => removeHandler(file, b.event, b.matcher, b.target))) throw new HttpError(404, "no_such_handler", "hooks remove: no such handler");
        return d.reload();
      },
    },
  ];
}
