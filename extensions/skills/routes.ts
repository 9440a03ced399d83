/**
 * The skills extension's routes (mounted by serve through service "routes"):
 *   GET  /skill                      every skill and command found, with its state (as `oceancode skill list --json`)
 *   POST /skill/:name/enable {on}    turn one on or off (as `oceancode skill enable|disable`)
 *   GET  /command                    what a person may type after `/`: the extensions' slash commands and the
 *                                    user-invocable skills and commands (the pager's `/` popup)
 */
import { type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { KernelIntrospection } from "../../kernel/api.js";
import { type SkillsService, type SkillState } from "./api.js";
import { isSkillNameError } from "./kit/shared.js";

const errorBody: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } },
};
const skillRow: JsonSchema = {
  type: "object",
  required: ["id", "name", "qualifiedName", "kind", "tier", "ecosystem", "file", "description", "enabled", "trusted", "shadowed", "modelInvocable", "userInvocable"],
  properties: {
    id: { type: "string", description: "<tier>.<eco>:<name>" },
    name: { type: "string" },
    qualifiedName: { type: "string", description: "what is typed: bare when unique, else <tier>:<name>" },
    kind: { type: "string", enum: ["skill", "command"] },
    tier: { type: "string" },
    ecosystem: { type: "string" },
    plugin: { type: "string" },
    file: { type: "string" },
    description: { type: "string" },
    argumentHint: { type: "string" },
    enabled: { type: "boolean" },
    reason: { type: "string", description: "why it is off" },
    trusted: { type: "boolean", description: "its root is trusted (an untrusted item's allowed-tools grant nothing)" },
    shadowed: { type: "boolean" },
    modelInvocable: { type: "boolean" },
    userInvocable: { type: "boolean" },
    warning: { type: "string" },
  },
};
const commandRow: JsonSchema = {
  type: "object",
  required: ["name", "usage", "summary", "source"],
  properties: {
    name: { type: "string", description: "typed as /<name>" },
    usage: { type: "string" },
    summary: { type: "string" },
    aliases: { type: "array", items: { type: "string" } },
    source: { type: "string", description: "the extension id, or skill / command for a skills item" },
  },
};

function row(s: SkillState, trusted: boolean): Record<string, unknown> {
  const k = s.skill;
  return {
    id: k.id,
    name: k.name,
    qualifiedName: k.qualifiedName,
    kind: k.kind,
    tier: k.tier,
    ecosystem: k.ecosystem,
    ...(k.plugin ? { plugin: k.plugin } : {}),
    file: k.file,
    description: k.description,
    ...(k.argumentHint ? { argumentHint: k.argumentHint } : {}),
    enabled: s.enabled,
    ...(s.reason ? { reason: s.reason } : {}),
    trusted,
    shadowed: k.shadowed,
    modelInvocable: k.modelInvocable,
    userInvocable: k.userInvocable,
    ...(k.warning ? { warning: k.warning } : {}),
  };
}

export function skillRoutes(service: SkillsService, introspect: () => KernelIntrospection): RouteDefinition[] {
  const rows = () => {
    service.reload();
    return service.all().map((s) => row(s, service.trusted?.(s.skill) === true));
  };
  return [
    {
      method: "GET",
      url: "/skill",
      operationId: "skillList",
      summary: "every skill and command found (every tier and ecosystem), with its state and why it is off",
      schema: { response: { 200: { type: "object", required: ["skills"], properties: { skills: { type: "array", items: skillRow } } } } },
      handler: () => ({ skills: rows() }),
    },
    {
      method: "POST",
      url: "/skill/:name/enable",
      operationId: "skillEnable",
      summary: "turn a skill or command on or off by stable id, qualified or bare name (as `oceancode skill enable|disable`)",
      schema: {
        params: { type: "object", required: ["name"], properties: { name: { type: "string", minLength: 1, maxLength: 300 } } },
        body: { type: "object", required: ["on"], additionalProperties: false, properties: { on: { type: "boolean" } } },
        response: { 200: { type: "object", required: ["changed"], properties: { changed: { type: "array", items: { type: "string" }, description: "stable ids" } } }, 404: errorBody, 409: errorBody },
      },
      handler: (req) => {
        const name = (req.params as { name: string }).name;
        try {
          return { changed: service.setEnabled(name, (req.body as { on: boolean }).on).map((s) => s.id) };
        } catch (e) {
          if (!isSkillNameError(e)) throw e;
          if (e.code === "OC_ERR_SKILL_AMBIGUOUS") throw new HttpError(409, "skill_ambiguous", `${e.message} (use one of: ${e.candidates.join(", ")})`);
          throw new HttpError(404, "skill_not_found", e.message);
        }
      },
    },
    {
      method: "GET",
      url: "/command",
      operationId: "commandList",
      summary: "the slash commands a person may type: the extensions' (/help, /undo, ...) and the enabled user-invocable skills and commands",
      schema: { response: { 200: { type: "object", required: ["commands"], properties: { commands: { type: "array", items: commandRow } } } } },
      handler: () => {
        const out: Array<Record<string, unknown>> = [];
        for (const e of introspect().extensions) {
          if (e.state !== "active" && e.state !== "lazy") continue;
          for (const c of e.manifest?.contributes?.slashCommands ?? []) out.push({ name: c.name, usage: c.usage ?? `/${c.name}`, summary: c.summary ?? "", ...(c.aliases?.length ? { aliases: c.aliases } : {}), source: e.id });
        }
        const taken = new Set(out.map((c) => c.name));
        for (const s of service.list()) {
          if (!s.userInvocable || taken.has(s.qualifiedName)) continue;
          out.push({ name: s.qualifiedName, usage: `/${s.qualifiedName}${s.argumentHint ? ` ${s.argumentHint}` : ""}`, summary: s.description, source: s.kind });
        }
        return { commands: out };
      },
    },
  ];
}
