/** openai/<model>: registers the OpenAI (and OpenAI-compatible) provider and its catalogue entries. */
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService } from "../engine/api.js";
import { idleTimeoutMs } from "../engine/kit.js";
import type { CredentialsService } from "../auth/api.js";
import { createOpenAIProvider } from "./provider.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const credentials = ctx.services.tryGet("credentials");
    const provider = createOpenAIProvider({
      apiKey: () => credentials?.get("openai") ?? (ctx.env.OPENAI_API_KEY || undefined),
      baseURL: () => ctx.env.OPENAI_BASE_URL || (ctx.config.get("provider.openai.base_url") as string | undefined) || undefined,
      idleTimeoutMs: () => idleTimeoutMs(ctx.config.get("provider.idle_timeout_s")),
      debug: (text) => ctx.log.debug(text),
    });
    for (const m of provider.models?.() ?? []) engine.models.add(m);
    engine.providers.register(provider, ctx.id);
  },
};
