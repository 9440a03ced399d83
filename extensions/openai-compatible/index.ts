/**
 * OpenAI-compatible presets (`ollama/<model>`, `lmstudio/<model>`, `vllm/<model>`, `openrouter/<vendor>/<model>`)
 * and the user's own (`provider.<name>.base_url` makes `<name>/<model>` work): each is the openai
 * extension's provider with its own id, endpoint, key and headers, registered when its id is first asked for.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import { idleTimeoutMs, type EngineService } from "../engine/api.js";
import type { CredentialsService } from "../auth/api.js";
import { createOpenAIProvider } from "../openai/api.js";
import { BUILT_IN, baseURLFor, configuredModels, customPresets, type Preset, type PresetConfig } from "./presets.js";

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get<EngineService>("engine");
    const credentials = ctx.services.tryGet<CredentialsService>("credentials");
    const section = () => (ctx.config.get("provider") as Record<string, unknown> | undefined) ?? {};
    const cfg = (id: string) => section()[id] as PresetConfig | undefined;
    // names other manifests declare are theirs, even when the user gives them a base_url
    const taken = new Set(ctx.contributions<string[]>("providers").filter((c) => c.extension !== ctx.id).flatMap((c) => c.value));

    const keyFor = (p: Preset): string | undefined => {
      if (p.custom) return p.keyEnv ? ctx.env[p.keyEnv] || undefined : undefined;
      return credentials?.get(p.id) ?? ((p.keyEnv && ctx.env[p.keyEnv]) || undefined);
    };
    const keyFix = (p: Preset): string => {
      if (p.custom) return p.keyEnv ? `set ${p.keyEnv} (provider.${p.id}.api_key_env names it)` : `name the variable that holds it with provider.${p.id}.api_key_env`;
      if (!p.keyEnv) return `${p.label} takes no key by default; if this server was started with one, store it with \`oceancode key ${p.id} <key>\``;
      return `store one with \`oceancode key ${p.id} <key>\` or set ${p.keyEnv}`;
    };

    for (const p of [...BUILT_IN, ...customPresets(section(), taken)]) {
      if (engine.providers.get(p.id)) continue;
      const provider = createOpenAIProvider({
        apiKey: () => keyFor(p),
        baseURL: () => baseURLFor(p, cfg(p.id), ctx.env),
        idleTimeoutMs: () => idleTimeoutMs(ctx.config.get("provider.idle_timeout_s")),
        debug: (text) => ctx.log.debug(text),
        route: {
          id: p.id,
          defaultBaseURL: p.defaultBaseURL,
          requiresKey: p.requiresKey,
          wording: () => ({ keyFix: keyFix(p), unreachable: p.unreachable }),
          headers: () => ({ ...p.headers, ...stringEntries(cfg(p.id)?.headers) }),
          models: () => configuredModels(p.id, cfg(p.id)),
          lacks: (sessionId, text) => engine.notice(sessionId, "info", text),
        },
      });
      for (const m of provider.models?.() ?? []) engine.models.add(m);
      engine.providers.register(provider, ctx.id);
    }
  },
};

/** A config object's string-valued entries (a header with another value is skipped, never sent as "[object]"). */
function stringEntries(o: unknown): Record<string, string> {
  if (!o || typeof o !== "object") return {};
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string"));
}
