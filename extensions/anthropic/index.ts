/** anthropic/<model>: registers the Anthropic provider and its catalogue entries with the engine. */
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService } from "../engine/api.js";
import { idleTimeoutMs } from "../engine/kit.js";
import type { CredentialsService } from "../auth/api.js";
import { createAnthropicProvider } from "./provider.js";
import type { CacheTtl } from "./messages.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const credentials = ctx.services.tryGet("credentials");
    const provider = createAnthropicProvider({
      apiKey: () => credentials?.get("anthropic") ?? (ctx.env.ANTHROPIC_API_KEY || undefined),
      baseURL: () => ctx.env.ANTHROPIC_BASE_URL || (ctx.config.get("provider.anthropic.base_url") as string | undefined) || undefined,
      notice: (text) => ctx.log.warn(`anthropic: ${text}`),
      idleTimeoutMs: () => idleTimeoutMs(ctx.config.get("provider.idle_timeout_s")),
      debug: (text) => ctx.log.debug(text),
      cacheTtl: () => (ctx.config.get("provider.anthropic.cache_ttl") as CacheTtl | undefined) ?? "1h",
    });
    for (const m of provider.models?.() ?? []) engine.models.add(m);
    engine.providers.register(provider, ctx.id);
  },
};
