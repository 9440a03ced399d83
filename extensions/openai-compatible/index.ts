/**
 * OpenAI-compatible presets (`ollama/<model>`, `lmstudio/<model>`, `vllm/<model>`, `openrouter/<vendor>/<model>`)
 * and the user's own (`provider.<name>.base_url` makes `<name>/<model>` work): each is the openai
 * extension's provider with its own id, endpoint, key and headers (route.ts), registered on activation.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService } from "../engine/api.js";
import { idleTimeoutMs } from "../engine/kit.js";
import type { CredentialsService } from "../auth/api.js";
import { BUILT_IN, customPresets, type PresetConfig } from "./presets.js";
import { createPresetProvider } from "./route.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const credentials = ctx.services.tryGet("credentials");
    const section = () => (ctx.config.get("provider") as Record<string, unknown> | undefined) ?? {};
    // names other manifests declare are theirs, even when the user gives them a base_url
    const taken = new Set(ctx.contributions<string[]>("providers").filter((c) => c.extension !== ctx.id).flatMap((c) => c.value));
    for (const p of [...BUILT_IN, ...customPresets(section(), taken)]) {
      if (engine.providers.get(p.id)) continue;
      const provider = createPresetProvider(p, {
        env: ctx.env,
        config: (id) => section()[id] as PresetConfig | undefined,
        storedKey: (id) => credentials?.get(id),
        idleTimeoutMs: () => idleTimeoutMs(ctx.config.get("provider.idle_timeout_s")),
        debug: (text) => ctx.log.debug(text),
        notice: (sessionId, text) => engine.notice(sessionId, "info", text),
      });
      for (const m of provider.models?.() ?? []) engine.models.add(m);
      engine.providers.register(provider, ctx.id);
    }
  },
};
