/**
 * Permission rules over HTTP: read every rule in force (precedence order, with its layer and file), add
 * one, remove one, and check a call (what `oceancode permissions check` answers). A rule is added where
 * the CLI's own writes go, and nowhere else: the project's local config `.oceancode/oceancode.json`
 * (where an "always" answer saves its rule). The checkout's `.claude/settings*.json` (tier repo), the user's
 * global file, managed config and requirements are never written from HTTP; a rule from one of them is
 * refused for removal, naming its file. A change applies to the next tool call at once (the live rule list).
 */
import { ERROR_SCHEMA, type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { PermissionMode, PermissionsService } from "./api.js";
import { MODES } from "./modes.js";
import { parseRule, type Rule } from "./rules.js";
import { projectConfigFile, removeRule, saveRule } from "./save.js";

export interface RuleRouteDeps {
  service: PermissionsService;
  /** the live rule list the authorize tap reads (precedence order: the last match wins) */
  rules: Rule[];
  project: string;
  home: string;
}

const ruleSchema: JsonSchema = {
  type: "object",
  required: ["rule", "tool", "pattern", "action", "layer"],
  properties: {
    rule: { type: "string", description: "as written: <tool> <pattern> <action>" },
    tool: { type: "string" },
    pattern: { type: "string" },
    action: { type: "string", enum: ["allow", "ask", "deny"] },
    layer: { type: "string", description: "default | global | project | managed | requirements | claude | shell | mode | session" },
    file: { type: "string" },
    removable: { type: "boolean", description: "POST /permission/rules/remove can take it out (it is in .oceancode/oceancode.json)" },
  },
};

const rulesAnswer: JsonSchema = {
  type: "object",
  required: ["rules", "file", "warnings"],
  properties: {
    rules: { type: "array", items: ruleSchema, description: "lowest precedence first: the last rule that matches decides" },
    file: { type: "string", description: "where POST /permission/rules adds a rule" },
    warnings: { type: "array", items: { type: "string" }, description: "malformed rules skipped, settings held" },
  },
};

const ruleBody: JsonSchema = {
  type: "object",
  required: ["rule"],
  additionalProperties: false,
  properties: { rule: { type: "string", minLength: 3, maxLength: 2000, description: "<tool> <pattern> <action>, e.g. bash git push * deny" } },
  examples: [{ rule: "bash git push * deny" }],
};

/**
 * Where a rule of the project's config file goes in the live list: where it will be at the next start
 * (sources.ts), after the global and project `permission` rules and before every layer that beats them
 * (managed, requirements, shell.allow/deny, the Claude deny entries). Appended at the end, an added allow
 * would beat a requirements pin or a Claude deny.
 */
export function placeOf(rules: readonly Rule[]): number {
  const i = rules.findIndex((r) => r.layer === "managed" || r.layer === "requirements" || /\(shell\.(allow|deny)\)$/.test(r.text) || (r.layer === "claude" && r.action === "deny"));
  return i < 0 ? rules.length : i;
}

export function ruleRoutes(d: RuleRouteDeps): RouteDefinition[] {
  const file = projectConfigFile(d.project);
  const tags = ["permissions"];
  const answer = () => ({
    rules: d.rules.map((r) => ({ rule: r.text, tool: r.tool, pattern: r.pattern, action: r.action, layer: r.layer, ...(r.file ? { file: r.file } : {}), removable: r.file === file })),
    file,
    warnings: d.service.warnings(),
  });
  const parsed = (text: string): Rule => {
    const r = parseRule(text, { layer: "project", file }, d.home);
    if (typeof r === "string") throw new HttpError(400, "invalid_rule", `"${text.slice(0, 200)}": ${r}`);
    return r;
  };
  const fileError = (e: unknown): never => {
    throw new HttpError(409, "config_file_invalid", (e as Error).message);
  };
  return [
    {
      method: "GET",
      url: "/permission/rules",
      operationId: "permissionRules",
      summary: "Every permission rule in force, lowest precedence first, with its layer and file",
      tags,
      schema: { response: { 200: rulesAnswer } },
      handler: answer,
    },
    {
      method: "POST",
      url: "/permission/rules",
      operationId: "permissionRuleAdd",
      summary: "Add a rule to the project's local config (.oceancode/oceancode.json, where an \"always\" answer saves); it applies from the next tool call",
      tags,
      schema: { body: ruleBody, response: { 200: rulesAnswer, 409: ERROR_SCHEMA } },
      handler: (req) => {
        const text = (req.body as { rule: string }).rule.trim();
        const rule = parsed(text);
        try {
          saveRule(d.project, rule.text);
        } catch (e) {
          fileError(e);
        }
        if (!d.rules.some((r) => r.text === rule.text && r.file === file)) d.rules.splice(placeOf(d.rules), 0, rule);
        return answer();
      },
    },
    {
      method: "POST",
      url: "/permission/rules/remove",
      operationId: "permissionRuleRemove",
      summary: "Remove a rule from the project's local config; a rule of another file (the checkout's .claude settings, global, managed, requirements) is refused, naming its file",
      tags,
      schema: { body: ruleBody, response: { 200: rulesAnswer, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA } },
      handler: (req) => {
        // as written: a rule of another file (Claude's `Bash(rm:*)`) is named by its own text
        const text = (req.body as { rule: string }).rule.trim();
        let removed = false;
        try {
          removed = removeRule(d.project, text);
        } catch (e) {
          fileError(e);
        }
        const live = d.rules.filter((r) => r.text === text && r.file === file);
        if (!removed && live.length === 0) {
          const elsewhere = d.rules.find((r) => r.text === text);
          if (elsewhere) throw new HttpError(409, "rule_not_removable", `"${text}" comes from ${elsewhere.file ?? `the ${elsewhere.layer} layer`}, which is not written over HTTP; edit that file`);
          parsed(text); // a malformed rule is a 400, not a 404
          throw new HttpError(404, "rule_not_found", `no rule "${text}" in ${file}`);
        }
        for (const r of live) d.rules.splice(d.rules.indexOf(r), 1);
        return answer();
      },
    },
    {
      method: "POST",
      url: "/permission/check",
      operationId: "permissionCheck",
      summary: "Would this call be allowed, asked or denied, and by which rule? (oceancode permissions check; runs nothing)",
      tags,
      schema: {
        body: {
          type: "object",
          required: ["tool", "subject"],
          additionalProperties: false,
          properties: {
            tool: { type: "string", minLength: 1, maxLength: 200 },
            subject: { type: "string", maxLength: 100_000, description: "the command for bash, the path for file tools" },
            mode: { type: "string", enum: [...MODES] },
            cwd: { type: "string", minLength: 1 },
          },
          examples: [{ tool: "bash", subject: "git push --force" }],
        },
        response: {
          200: {
            type: "object",
            required: ["action", "reason", "rule", "layer"],
            properties: { action: { type: "string", enum: ["allow", "ask", "deny"] }, reason: { type: "string" }, rule: { type: "string" }, layer: { type: "string" }, file: { type: "string" }, always: { type: "string" } },
          },
        },
      },
      handler: async (req) => {
        const b = req.body as { tool: string; subject: string; mode?: PermissionMode; cwd?: string };
        const r = await d.service.check(b.tool, b.subject, { ...(b.mode ? { mode: b.mode } : {}), ...(b.cwd ? { cwd: b.cwd } : {}) });
        return { action: r.action, reason: r.reason, rule: r.rule, layer: r.layer, ...(r.file ? { file: r.file } : {}), ...(r.always ? { always: r.always } : {}) };
      },
    },
  ];
}
