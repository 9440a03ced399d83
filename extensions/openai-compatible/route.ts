/** One preset as a provider: the openai extension's provider with the preset's id, endpoint, key and headers. */
import type { Provider } from "../engine/api.js";
import { createOpenAIProvider } from "../openai/kit.js";
import { baseURLFor, configuredModels, type Preset, type PresetConfig } from "./presets.js";

export interface PresetDeps {
  env: Readonly<Record<string, string | undefined>>;
  /** provider.<id> from config, read at each request (a reload applies) */
  config(id: string): PresetConfig | undefined;
  /** a stored or env key for a built-in preset (the credentials service) */
  storedKey?(id: string): string | undefined;
  idleTimeoutMs?(): number;
  debug?(text: string): void;
  /** a feature the server lacks, told once per session, model and feature */
  notice?(sessionId: string, text: string): void;
}

function keyFix(p: Preset): string {
  if (p.custom) return p.keyEnv ? `set ${p.keyEnv} (provider.${p.id}.api_key_env names it)` : `name the variable that holds it with provider.${p.id}.api_key_env`;
  if (!p.keyEnv) return `${p.label} takes no key by default; if this server was started with one, store it with \`oceancode key ${p.id} <key>\``;
  return `store one with \`oceancode key ${p.id} <key>\` or set ${p.keyEnv}`;
}

/** A config object's string-valued entries (a header with another value is skipped, never sent as "[object]"). */
function stringEntries(o: unknown): Record<string, string> {
  if (!o || typeof o !== "object") return {};
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export function createPresetProvider(p: Preset, deps: PresetDeps): Provider {
  const keyFor = (): string | undefined => {
    if (p.custom) return p.keyEnv ? deps.env[p.keyEnv] || undefined : undefined;
    return deps.storedKey?.(p.id) ?? ((p.keyEnv && deps.env[p.keyEnv]) || undefined);
  };
  return createOpenAIProvider({
    apiKey: keyFor,
    baseURL: () => baseURLFor(p, deps.config(p.id), deps.env),
    ...(deps.idleTimeoutMs ? { idleTimeoutMs: deps.idleTimeoutMs } : {}),
    ...(deps.debug ? { debug: deps.debug } : {}),
    route: {
      id: p.id,
      label: p.label,
      defaultBaseURL: p.defaultBaseURL,
      requiresKey: p.requiresKey,
      wording: () => ({ keyFix: keyFix(p), unreachable: p.unreachable }),
      headers: () => ({ ...p.headers, ...stringEntries(deps.config(p.id)?.headers) }),
      models: () => configuredModels(p.id, deps.config(p.id)),
      ...(deps.notice ? { lacks: deps.notice } : {}),
    },
  });
}
