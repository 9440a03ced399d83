/** bedrock/<model id>: registers the Amazon Bedrock provider (the AWS credential chain, never stored by us). */
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService } from "../engine/api.js";
import { idleTimeoutMs } from "../engine/kit.js";
import type { CacheTtl } from "../anthropic/api.js";
import { createBedrockProvider } from "./provider.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const provider = createBedrockProvider({
      places: () => ({ env: ctx.env, region: str(ctx.config.get("provider.bedrock.region")), profile: str(ctx.config.get("provider.bedrock.profile")) }),
      baseURL: () => str(ctx.env.ANTHROPIC_BEDROCK_BASE_URL) ?? str(ctx.config.get("provider.bedrock.base_url")),
      cacheTtl: () => (ctx.config.get("provider.bedrock.cache_ttl") as CacheTtl | undefined) ?? "5m",
      idleTimeoutMs: () => idleTimeoutMs(ctx.config.get("provider.idle_timeout_s")),
      notice: (text) => ctx.log.warn(`bedrock: ${text}`),
      debug: (text) => ctx.log.debug(text),
    });
    for (const m of provider.models?.() ?? []) engine.models.add(m);
    engine.providers.register(provider, ctx.id);
  },
};
