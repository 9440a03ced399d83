/**
 * The permissions extension's HTTP routes (mounted by the serve host through service "routes"): read and
 * switch a session's permission mode live. A switch is the session's override (`permission_mode`, the key
 * modeOf reads at every tool call), so it applies from the next tool call and survives --continue.
 * Two spellings of each route: ours and the guide's `/api/session/{id}/permission/mode`.
 */
import type { Session } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import { ERROR_SCHEMA, type JsonSchema, type RouteDefinition, type RouteRequest } from "../serve/api.js";
import type { PermissionMode, PermissionsService } from "./api.js";
import { MODES } from "./modes.js";

const sessionParams: JsonSchema = { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] };
const modeAnswer: JsonSchema = {
  type: "object",
  properties: {
    mode: { type: "string", enum: [...MODES] },
    note: { type: "string", description: "why the mode in force is not the one asked for (e.g. requirements disable bypassPermissions)" },
  },
  required: ["mode"],
  additionalProperties: false,
};
const modeBody: JsonSchema = { type: "object", properties: { mode: { type: "string", enum: [...MODES] } }, required: ["mode"], additionalProperties: false };

export interface ModeAnswer {
  mode: PermissionMode;
  note?: string;
}

/** The mode in force for a session; the note when its override was downgraded (a requirements lock). */
export function modeOfSession(permissions: PermissionsService, session: Session): ModeAnswer {
  const o = session.info.overrides.permission_mode;
  return typeof o === "string" ? permissions.resolveMode(o) : { mode: permissions.modeOf(session.info.overrides) };
}

/** Switch a session's mode: the resolved mode is what is stored, so a locked bypassPermissions never lingers. */
export function switchMode(permissions: PermissionsService, session: Session, requested: string, storage?: StorageService): ModeAnswer {
  const r = permissions.resolveMode(requested);
  session.info.overrides.permission_mode = r.mode;
  // stored now, not only at the next turn's end: a client may switch and leave
  storage?.saveInfo(session.info);
  return r;
}

export function permissionRoutes(permissions: PermissionsService, storage: () => StorageService | undefined): RouteDefinition[] {
  const read = async (req: RouteRequest): Promise<ModeAnswer> => modeOfSession(permissions, await req.session(req.params.id!));
  const write = async (req: RouteRequest): Promise<ModeAnswer> => {
    const body = req.body as { mode: string };
    return switchMode(permissions, await req.session(req.params.id!), body.mode, storage());
  };
  const get = { summary: "The session's permission mode in force", schema: { params: sessionParams, response: { 200: modeAnswer, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA } }, handler: read };
  const post = {
    summary: "Switch the session's permission mode live (bypassPermissions downgrades to default when managed requirements disable it; the note says so)",
    schema: { params: sessionParams, body: modeBody, response: { 200: modeAnswer, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA } },
    handler: write,
  };
  return [
    { method: "GET", url: "/session/:id/permission-mode", operationId: "permissionModeGet", ...get },
    { method: "POST", url: "/session/:id/permission-mode", operationId: "permissionModeSet", ...post },
    { method: "GET", url: "/api/session/:id/permission/mode", operationId: "permissionModeGetApi", ...get },
    { method: "POST", url: "/api/session/:id/permission/mode", operationId: "permissionModeSetApi", ...post },
  ];
}
