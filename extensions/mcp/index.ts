/**
 * TEMPORARY (sources branch): only what `oceancode mcp` needs end to end. The client branch owns the real
 * index.ts (connections, tools, lifecycle) and adds these two lines to its activate.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { TrustService } from "../trust/api.js";
import { pluginReader } from "./sources/context.js";
import { registerMcpCommand } from "./cli/register.js";

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerReader(pluginReader);
    registerMcpCommand(ctx, { trust: ctx.services.tryGet<TrustService>("trust") });
  },
};
