/** google/<model>: registers the Gemini provider and its catalogue entries with the engine. */
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService } from "../engine/api.js";
import { idleTimeoutMs } from "../engine/kit.js";
import type { CredentialsService } from "../auth/api.js";
import { createGoogleProvider } from "./provider.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const credentials = ctx.services.tryGet("credentials");
    const provider = createGoogleProvider({
      // GOOGLE_API_KEY wins over GEMINI_API_KEY (as in Google's SDK), then the stored key
      apiKey: () => ctx.env.GOOGLE_API_KEY || ctx.env.GEMINI_API_KEY || credentials?.get("google") || undefined,
      baseURL: () => ctx.env.GOOGLE_GEMINI_BASE_URL || (ctx.config.get("provider.google.base_url") as string | undefined) || undefined,
      idleTimeoutMs: () => idleTimeoutMs(ctx.config.get("provider.idle_timeout_s")),
      notice: (text) => ctx.log.warn(`google: ${text}`),
      cacheRequested: () => ctx.config.get("provider.google.cache_ttl") !== undefined,
    });
    for (const m of provider.models?.() ?? []) engine.models.add(m);
    engine.providers.register(provider, ctx.id);
  },
};
