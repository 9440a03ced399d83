/** The acp extension: `oceancode acp`, an Agent Client Protocol agent on stdio (server.ts). */
import type { ExtensionContext } from "../../kernel/api.js";
import { serveAcp } from "./server.js";

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerCommand("acp", (argv, io) => serveAcp(ctx, argv, io));
  },
};
