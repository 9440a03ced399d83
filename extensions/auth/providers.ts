/**
 * How each provider authenticates, as `oceancode key`, `oceancode auth` and the credentials service see it:
 * an API key we store (or read from its env vars), a cloud provider's own credential chain we never touch,
 * a CLI's own login, or nothing. Listed here (not in each provider's manifest) so `key google` works and
 * `auth status` names every provider even before that provider is installed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type ProviderAuth =
  /** env: the variables read, first set wins; optional: the server usually runs without one (vllm) */
  | { kind: "key"; env: string[]; optional?: boolean }
  /** a credential chain the provider's SDK reads itself; `how` says where it looks */
  | { kind: "chain"; how: string; detect(env: NodeJS.ProcessEnv, home: string): string | undefined }
  | { kind: "login"; how: string }
  | { kind: "none"; how: string };

const exists = (p: string) => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

/** Which part of the AWS chain would answer (names only: never a key id or secret). */
function awsSource(env: NodeJS.ProcessEnv, home: string): string | undefined {
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY";
  if (env.AWS_PROFILE) return `AWS_PROFILE (${env.AWS_PROFILE})`;
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE) return "AWS_WEB_IDENTITY_TOKEN_FILE";
  if (env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI) return "the container credentials endpoint";
  const file = env.AWS_SHARED_CREDENTIALS_FILE || path.join(home, ".aws", "credentials");
  if (exists(file)) return file;
  return undefined;
}

function googleSource(env: NodeJS.ProcessEnv, home: string): string | undefined {
  if (env.GOOGLE_APPLICATION_CREDENTIALS) return `GOOGLE_APPLICATION_CREDENTIALS (${env.GOOGLE_APPLICATION_CREDENTIALS})`;
  const adc = path.join(env.CLOUDSDK_CONFIG || path.join(home, ".config", "gcloud"), "application_default_credentials.json");
  if (exists(adc)) return adc;
  return undefined;
}

export const PROVIDER_AUTH: Readonly<Record<string, ProviderAuth>> = {
  anthropic: { kind: "key", env: ["ANTHROPIC_API_KEY"] },
  openai: { kind: "key", env: ["OPENAI_API_KEY"] },
  // @google/genai reads both; GOOGLE_API_KEY wins there when both are set, so it does here too
  google: { kind: "key", env: ["GOOGLE_API_KEY", "GEMINI_API_KEY"] },
  openrouter: { kind: "key", env: ["OPENROUTER_API_KEY"] },
  vllm: { kind: "key", env: ["VLLM_API_KEY"], optional: true },
  bedrock: {
    kind: "chain",
    how: "the AWS credential chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws/credentials, SSO, an instance or container role) and AWS_REGION",
    detect: awsSource,
  },
  vertex: {
    kind: "chain",
    how: "Google application-default credentials (GOOGLE_APPLICATION_CREDENTIALS, or gcloud auth application-default login) with the project and region",
    detect: googleSource,
  },
  "claude-code": { kind: "login", how: "the claude CLI's own login (claude /login); oceancode never handles its tokens" },
  ollama: { kind: "none", how: "a local server: no key" },
  lmstudio: { kind: "none", how: "a local server: no key" },
  scripted: { kind: "none", how: "offline scripted model: no key" },
};

/** A provider nobody listed here takes a key in <ID>_API_KEY (a third-party provider of the same shape). */
export function authOf(provider: string): ProviderAuth {
  return PROVIDER_AUTH[provider] ?? { kind: "key", env: [`${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`] };
}

/** The providers that take a key we store, in the table's order. */
export function keyProviders(): string[] {
  return Object.entries(PROVIDER_AUTH)
    .filter(([, a]) => a.kind === "key")
    .map(([id]) => id);
}

/** The user's home for locating a chain's files (the sandboxed HOME in tests). */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || os.homedir();
}

/** Why a provider takes no key from us (its own chain, its own login, none needed), or undefined. */
export function noKeyReason(provider: string): string | undefined {
  const a = authOf(provider);
  if (a.kind === "chain") return `${provider} takes no key from oceancode: its credentials come from ${a.how}; nothing stored`;
  if (a.kind === "login") return `${provider} takes no key: it uses ${a.how}; nothing stored`;
  if (a.kind === "none") return `${provider} takes no key (${a.how}); nothing stored`;
  return undefined;
}
