/**
 * Where Bedrock requests go and who signs them, from the standard AWS places: the region from AWS_REGION,
 * AWS_DEFAULT_REGION, provider.bedrock.region or the profile's `region` in ~/.aws/config; credentials from
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN), else the AWS SDK's own chain for the
 * profile (AWS_PROFILE or provider.bedrock.profile: ~/.aws/credentials and config, SSO, credential_process,
 * web identity, the container and instance roles). Nothing is stored by us: the chain is asked each step.
 */
import fs from "node:fs";
import path from "node:path";
import type { AwsCredentialIdentity } from "@smithy/types";

export interface AwsPlaces {
  env: NodeJS.ProcessEnv;
  /** provider.bedrock.region */
  region?: string;
  /** provider.bedrock.profile */
  profile?: string;
}

export const FIX_CREDENTIALS =
  "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys), or AWS_PROFILE / provider.bedrock.profile naming a profile in ~/.aws/credentials or ~/.aws/config (`aws configure`, `aws sso login`); oceancode stores no AWS credentials";
export const FIX_REGION = "set AWS_REGION (or AWS_DEFAULT_REGION), provider.bedrock.region, or `region` in the profile's ~/.aws/config section";

export function profileName(p: AwsPlaces): string {
  return p.env.AWS_PROFILE || p.profile || "default";
}

function configFile(env: NodeJS.ProcessEnv): string | undefined {
  if (env.AWS_CONFIG_FILE) return env.AWS_CONFIG_FILE;
  return env.HOME ? path.join(env.HOME, ".aws", "config") : undefined;
}

/** One key of one section of an AWS ini file (`[default]`, `[profile name]`), or undefined. */
export function iniValue(text: string, section: string, key: string): string | undefined {
  let inSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/^\s+|\s+$/g, "");
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (head) {
      inSection = head[1] === section;
      continue;
    }
    if (!inSection) continue;
    const eq = line.indexOf("=");
    if (eq > 0 && line.slice(0, eq).trim() === key) return line.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

function profileRegion(p: AwsPlaces): string | undefined {
  const file = configFile(p.env);
  if (!file) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const name = profileName(p);
  return iniValue(text, name === "default" ? "default" : `profile ${name}`, "region") ?? (name === "default" ? iniValue(text, "profile default", "region") : undefined);
}

/** The region requests go to, or undefined when no place names one. */
export function resolveRegion(p: AwsPlaces): string | undefined {
  return p.env.AWS_REGION || p.env.AWS_DEFAULT_REGION || p.region || profileRegion(p);
}

/** Static keys from the environment, when both halves are set. */
export function envCredentials(env: NodeJS.ProcessEnv): AwsCredentialIdentity | undefined {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}

type Chain = () => Promise<AwsCredentialIdentity>;
const chains = new Map<string, Chain>();

/**
 * The AWS SDK's node chain for a profile (it memoises and refreshes expiring credentials itself). Loaded
 * only when the environment holds no keys, so a key-only setup never loads it.
 */
export async function chainCredentials(profile: string): Promise<AwsCredentialIdentity> {
  let chain = chains.get(profile);
  if (!chain) {
    type Mod = typeof import("@aws-sdk/credential-providers");
    const mod = (await import("@aws-sdk/credential-providers")) as Mod & { default?: Mod };
    // a CommonJS package: bundled, its exports arrive under `default`
    const fromNodeProviderChain = mod.fromNodeProviderChain ?? mod.default!.fromNodeProviderChain;
    chain = fromNodeProviderChain({ profile });
    chains.set(profile, chain);
  }
  try {
    return await chain();
  } catch (e) {
    chains.delete(profile); // a profile written after the failure is read next time
    throw e;
  }
}
