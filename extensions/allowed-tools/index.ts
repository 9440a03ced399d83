/**
 * The allowed-tools extension: taps the engine's toolResult (a successful `skill` call grants its skill's
 * allowed-tools for the rest of the turn) and authorizeToolCall at STAGE_ALLOWED_TOOLS (see grants.ts).
 */
import type { ExtensionContext } from "../../kernel/api.js";
import { AllowedTools, STAGE_ALLOWED_TOOLS } from "./grants.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    const grants = new AllowedTools(ctx.services.get("skills"), () => ctx.services.tryGet("permissions"), ctx.id);
    engine.hooks.toolResult.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, (result, call) => grants.observe(result, call));
    engine.hooks.authorizeToolCall.tap({ name: ctx.id, stage: STAGE_ALLOWED_TOOLS }, (call) => grants.authorize(call));
  },
};
