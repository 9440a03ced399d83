/** The scripted provider extension: registers the offline provider with the engine. */
import type { ExtensionContext } from "../../kernel/api.js";
import { ScriptedProvider } from "./provider.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const provider = new ScriptedProvider(ctx.paths.project, ctx.env.OC_SCRIPTED_RECORD);
    engine.providers.register(provider, ctx.id);
    for (const m of provider.models()) engine.models.add(m);
  },
};
