/**
 * The claude child's environment. It goes through the childProcess hook (child-env strips secret-looking
 * names, the sandbox may wrap it); then only the variables claude itself reads for its own login and
 * endpoint are put back, from oceancode's environment, never oceancode's own secrets (OC_*, other keys).
 */
import type { SpawnSpec } from "../engine/api.js";

/** What claude reads for auth and routing: an API key or token of its own, its endpoint, its config dir. */
export const CLAUDE_ENV_KEYS = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_VERTEX",
  "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
  "DISABLE_AUTOUPDATER",
  "DISABLE_TELEMETRY",
  "DISABLE_ERROR_REPORTING",
  "CLAUDE_CODE_MAX_RETRIES",
  "API_TIMEOUT_MS",
] as const;

/** Variables never handed to claude whatever child-env allows: oceancode's own secrets and switches. */
function oceancodeOwn(name: string): boolean {
  return name.startsWith("OC_") || name.startsWith("OCEANCODE_");
}

export function claudeEnv(composed: NodeJS.ProcessEnv, original: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(composed)) if (v !== undefined && !oceancodeOwn(k)) out[k] = v;
  for (const k of CLAUDE_ENV_KEYS) if (original[k]) out[k] = original[k];
  return out;
}

export type ComposeSpawn = (spec: SpawnSpec) => Promise<SpawnSpec>;
