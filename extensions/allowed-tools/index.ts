/**
 * The allowed-tools extension: taps the engine's toolResult (a successful `skill` call grants its skill's
 * allowed-tools for the rest of the turn) and authorizeToolCall in its `grants` phase (see grants.ts).
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import type { PermissionsService } from "../permissions/api.js";
import type { SkillsService } from "../skills/api.js";
import { AllowedTools } from "./grants.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.tryGet<EngineService>("engine");
    if (!engine) return;
    const grants = new AllowedTools(ctx.services.get<SkillsService>("skills"), () => ctx.services.tryGet<PermissionsService>("permissions"), ctx.id);
    engine.hooks.toolResult.tap({ name: ctx.id, stage: "observe" }, (result, call) => grants.observe(result, call));
    engine.hooks.authorizeToolCall.tap({ name: ctx.id, stage: "grants" }, (call) => grants.authorize(call));
  },
};
