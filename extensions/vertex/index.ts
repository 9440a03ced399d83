/** vertex/<model>: registers the Google Vertex AI provider (application-default credentials, never stored by us). */
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService } from "../engine/api.js";
import { idleTimeoutMs } from "../engine/kit.js";
import type { CacheTtl } from "../anthropic/api.js";
import { createVertexProvider } from "./provider.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const provider = createVertexProvider({
      places: () => ({ env: ctx.env, project: str(ctx.config.get("provider.vertex.project")), region: str(ctx.config.get("provider.vertex.region")) }),
      baseURL: () => str(ctx.env.ANTHROPIC_VERTEX_BASE_URL) ?? str(ctx.config.get("provider.vertex.base_url")),
      cacheTtl: () => (ctx.config.get("provider.vertex.cache_ttl") as CacheTtl | undefined) ?? "5m",
      idleTimeoutMs: () => idleTimeoutMs(ctx.config.get("provider.idle_timeout_s")),
      notice: (text) => ctx.log.warn(`vertex: ${text}`),
      debug: (text) => ctx.log.debug(text),
    });
    for (const m of provider.models?.() ?? []) engine.models.add(m);
    engine.providers.register(provider, ctx.id);
  },
};
