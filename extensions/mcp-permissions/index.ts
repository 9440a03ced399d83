/**
 * mcp-permissions: the permissions extension's base rule is `* * allow`, so an MCP tool no rule names
 * would run unasked. This tap turns that default into an ask (ask.ts). Kept apart from the `mcp`
 * extension because an extension's optional services activate with it, and `mcp` also activates for
 * `oceancode mcp` and `inspect`, which must not load the permissions and shell-guard code.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import { mcpAsk } from "./ask.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    engine.hooks.authorizeToolCall.tap({ name: ctx.id, stage: "asks" }, mcpAsk(ctx.services.tryGet("permissions"), ctx.id));
  },
};
