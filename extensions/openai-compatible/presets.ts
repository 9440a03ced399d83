/**
 * The OpenAI-compatible presets: where each server listens by default, which env variable moves it, which
 * key it takes, and the user's own presets from config (`provider.<name>.base_url`). Pure: index.ts feeds
 * it the config section and the environment.
 */
export interface PresetConfig {
  base_url?: string;
  api_key_env?: string;
  headers?: Record<string, string>;
  models?: Array<string | { name: string; context_window?: number; max_output_tokens?: number }>;
}

export interface Preset {
  id: string;
  /** how errors name the server */
  label: string;
  defaultBaseURL: string;
  /** the tool's own variable that moves the server (OLLAMA_HOST), read as a host or a URL */
  hostEnv?: string;
  /** our variable for the full base URL, like OPENAI_BASE_URL */
  baseUrlEnv?: string;
  /** the variable holding the key, if the server takes one */
  keyEnv?: string;
  requiresKey: boolean;
  headers: Record<string, string>;
  /** what to check when it cannot be reached */
  unreachable: string;
  /** true: declared in the user's config, not built in */
  custom: boolean;
}

/** OpenRouter's attribution headers: how an app is named on openrouter.ai (both optional there). */
const OPENROUTER_ATTRIBUTION = { "HTTP-Referer": "https://www.npmjs.com/package/oceancode", "X-Title": "oceancode" };

export const BUILT_IN: readonly Preset[] = [
  { id: "ollama", label: "Ollama", defaultBaseURL: "http://127.0.0.1:11434/v1", hostEnv: "OLLAMA_HOST", requiresKey: false, headers: {}, unreachable: "is `ollama serve` running? OLLAMA_HOST or provider.ollama.base_url moves it", custom: false },
  { id: "lmstudio", label: "LM Studio", defaultBaseURL: "http://127.0.0.1:1234/v1", baseUrlEnv: "LMSTUDIO_BASE_URL", requiresKey: false, headers: {}, unreachable: "is LM Studio's server started (Developer tab, or `lms server start`)? LMSTUDIO_BASE_URL or provider.lmstudio.base_url moves it", custom: false },
  { id: "vllm", label: "vLLM", defaultBaseURL: "http://127.0.0.1:8000/v1", baseUrlEnv: "VLLM_BASE_URL", keyEnv: "VLLM_API_KEY", requiresKey: false, headers: {}, unreachable: "is `vllm serve <model>` running? VLLM_BASE_URL or provider.vllm.base_url moves it", custom: false },
  { id: "openrouter", label: "OpenRouter", defaultBaseURL: "https://openrouter.ai/api/v1", baseUrlEnv: "OPENROUTER_BASE_URL", keyEnv: "OPENROUTER_API_KEY", requiresKey: true, headers: OPENROUTER_ATTRIBUTION, unreachable: "check the network, or OPENROUTER_BASE_URL / provider.openrouter.base_url", custom: false },
];

export const BUILT_IN_IDS: ReadonlySet<string> = new Set(BUILT_IN.map((p) => p.id));

/** Config keys of the provider section that are settings, not providers. */
const NOT_PROVIDERS = new Set(["idle_timeout_s"]);
const ID = /^[a-z][a-z0-9-]*$/;

/**
 * The user's own presets: every `provider.<name>` object with a base_url whose name no other provider
 * takes (`taken`: the ids manifests declare and the built-in presets).
 */
export function customPresets(section: Record<string, unknown>, taken: ReadonlySet<string>): Preset[] {
  const out: Preset[] = [];
  for (const [id, raw] of Object.entries(section)) {
    if (NOT_PROVIDERS.has(id) || taken.has(id) || BUILT_IN_IDS.has(id) || !ID.test(id)) continue;
    const c = raw as PresetConfig | undefined;
    if (!c || typeof c !== "object" || typeof c.base_url !== "string" || !c.base_url) continue;
    out.push({
      id,
      label: id,
      defaultBaseURL: c.base_url,
      ...(c.api_key_env ? { keyEnv: c.api_key_env } : {}),
      requiresKey: Boolean(c.api_key_env),
      headers: {},
      unreachable: `is the server provider.${id}.base_url names running?`,
      custom: true,
    });
  }
  return out;
}

/** OLLAMA_HOST as Ollama reads it: `host`, `host:port` or a URL; our base URL is its /v1. */
export function ollamaHost(raw: string): string {
  let v = raw.trim().replace(/\/+$/, "");
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) v = `http://${v}`;
  const u = new URL(v);
  if (!u.port && !/^https?:\/\/[^/]*:\d+/i.test(v)) u.port = "11434";
  // 0.0.0.0 is where the server listens; a client reaches it on the loopback
  if (u.hostname === "0.0.0.0") u.hostname = "127.0.0.1";
  const path = u.pathname.replace(/\/+$/, "");
  return `${u.protocol}//${u.host}${path.endsWith("/v1") ? path : `${path}/v1`}`;
}

/**
 * The base URL to use and where it came from: the env variable, else provider.<id>.base_url, else the
 * default (a custom preset's default is its own base_url).
 */
export function baseURLFor(p: Preset, cfg: PresetConfig | undefined, env: Readonly<Record<string, string | undefined>>): string {
  if (p.hostEnv && env[p.hostEnv]) return ollamaHost(env[p.hostEnv]!);
  if (p.baseUrlEnv && env[p.baseUrlEnv]) return env[p.baseUrlEnv]!;
  return cfg?.base_url || p.defaultBaseURL;
}

/** The catalogue entries a preset's config lists (`models`): local models cost nothing per token. */
export function configuredModels(id: string, cfg: PresetConfig | undefined): Array<{ id: string; provider: string; name: string; contextWindow: number; maxOutputTokens: number; price: { input: number; output: number; cacheRead: number; cacheWrite: number } }> {
  return (cfg?.models ?? []).flatMap((m) => {
    const e = typeof m === "string" ? { name: m } : m;
    if (!e || typeof e.name !== "string" || !e.name) return [];
    return [{ id: `${id}/${e.name}`, provider: id, name: e.name, contextWindow: e.context_window ?? 128_000, maxOutputTokens: e.max_output_tokens ?? 8_192, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }];
  });
}
