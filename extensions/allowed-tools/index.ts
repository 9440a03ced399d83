/**
 * The allowed-tools extension: taps the engine's toolResult (a successful `skill` call grants its skill's
 * allowed-tools for the rest of the turn) and authorizeToolCall in its `grants` phase (see grants.ts).
 */
import type { ExtensionContext } from "../../kernel/api.js";
import { AllowedTools } from "./grants.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    const grants = new AllowedTools(ctx.services.get("skills"), () => ctx.services.tryGet("permissions"), ctx.id);
    engine.hooks.toolResult.tap({ name: ctx.id, stage: "observe" }, (result, call) => grants.observe(result, call));
    engine.hooks.authorizeToolCall.tap({ name: ctx.id, stage: "grants" }, (call) => grants.authorize(call));
  },
};
