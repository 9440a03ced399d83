/**
 * The Amazon Bedrock provider (bedrock/<model id>): the Anthropic stream mapping (oceancode/api/anthropic)
 * over @anthropic-ai/bedrock-sdk, which SigV4-signs each InvokeModelWithResponseStream request and turns
 * its event-stream framing back into the Messages events.
 */
import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import type { AwsCredentialIdentity } from "@smithy/types";
import { type ApiErrorInfo, type CacheTtl, type MessagesRoute, type MessagesSdk } from "../anthropic/api.js";
import { onceEach, sdkLogger, streamMessages } from "../anthropic/kit.js";
import { type ModelRequest, type Provider, type ProviderErrorCode, type ProviderEvent } from "../engine/api.js";
import { ProviderError, idleFetch, printableText } from "../engine/kit.js";
import { FIX_CREDENTIALS, FIX_REGION, chainCredentials, envCredentials, profileName, resolveRegion, type AwsPlaces } from "./aws.js";
import { bedrockModels, describeBedrock } from "./models.js";

export interface BedrockOptions {
  /** the environment and config, read before every request */
  places(): AwsPlaces;
  /** provider.bedrock.base_url (tests, a VPC endpoint); default https://bedrock-runtime.<region>.amazonaws.com */
  baseURL(): string | undefined;
  cacheTtl(): CacheTtl;
  idleTimeoutMs?(): number;
  notice?(text: string): void;
  debug?(text: string): void;
}

/** Bedrock's exception names (HTTP x-amzn-errortype, or an exception frame mid-stream) as provider codes. */
function classify(e: ApiErrorInfo): ProviderErrorCode | undefined {
  const t = e.type.toLowerCase();
  if (t.startsWith("throttling")) return "rate_limited";
  if (t.startsWith("serviceunavailable") || t.startsWith("modelnotready")) return "overloaded";
  if (t.startsWith("accessdenied") || t.startsWith("unrecognizedclient") || t.startsWith("expiredtoken") || t.startsWith("invalidsignature") || t.startsWith("incompletesignature")) return "auth";
  if (t.startsWith("modelstreamerror") || t.startsWith("internalserver") || t.startsWith("modeltimeout")) return "server";
  if (t.startsWith("validation") && /too long|too many (input )?tokens|context (window|length)/i.test(e.message)) return "prompt_too_long";
  return undefined;
}

export const BEDROCK_ROUTE: MessagesRoute = {
  service: "Amazon Bedrock",
  fixAuth: `check the AWS credentials and that they may call bedrock:InvokeModelWithResponseStream on this model: ${FIX_CREDENTIALS}`,
  classify,
};

interface Signing {
  region: string;
  /** a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK): sent as a bearer token instead of signing */
  apiKey?: string;
  creds?: AwsCredentialIdentity;
}

async function signing(p: AwsPlaces): Promise<Signing> {
  const region = resolveRegion(p);
  if (!region) throw new ProviderError("auth", `no AWS region for Amazon Bedrock: ${FIX_REGION}`);
  const apiKey = p.env.AWS_BEARER_TOKEN_BEDROCK;
  if (apiKey) return { region, apiKey };
  const fromEnv = envCredentials(p.env);
  if (fromEnv) return { region, creds: fromEnv };
  const profile = profileName(p);
  try {
    return { region, creds: await chainCredentials(profile) };
  } catch (e) {
    const why = printableText(e instanceof Error ? e.message : String(e), 200);
    throw new ProviderError("auth", `no AWS credentials for Amazon Bedrock (profile '${profile}': ${why}): ${FIX_CREDENTIALS}`);
  }
}

/** the version the route's documentation names for the body */
const WIRE_VERSION = { anthropic_version: "bedrock-2023-05-31" };

export function createBedrockProvider(opts: BedrockOptions): Provider {
  const notice = onceEach(opts.notice);
  let client: { key: string; sdk: AnthropicBedrock } | undefined;
  const clientFor = (s: Signing, baseURL: string | undefined): MessagesSdk => {
    const key = JSON.stringify([s.region, baseURL, s.apiKey, s.creds?.accessKeyId, s.creds?.secretAccessKey, s.creds?.sessionToken]);
    if (!client || client.key !== key) {
      // explicit keys or null everywhere: the SDK must not fall back to process.env on its own
      const sdk = new AnthropicBedrock({
        awsRegion: s.region,
        ...(baseURL ? { baseURL } : { baseURL: `https://bedrock-runtime.${s.region}.amazonaws.com` }),
        apiKey: s.apiKey ?? null,
        ...(s.creds ? { awsAccessKey: s.creds.accessKeyId, awsSecretKey: s.creds.secretAccessKey, awsSessionToken: s.creds.sessionToken ?? null } : {}),
        maxRetries: 0,
        fetch: idleFetch,
        logger: sdkLogger("bedrock sdk", opts.debug),
      } as ConstructorParameters<typeof AnthropicBedrock>[0]);
      client = { key, sdk };
    }
    return client.sdk as unknown as MessagesSdk;
  };
  return {
    id: "bedrock",
    models: bedrockModels,
    describe: describeBedrock,
    ready: () => (resolveRegion(opts.places()) ? undefined : new ProviderError("auth", `no AWS region for Amazon Bedrock: ${FIX_REGION}`)),
    async *stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      const s = await signing(opts.places());
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      yield* streamMessages(clientFor(s, opts.baseURL()), req, signal, { cacheTtl: opts.cacheTtl(), idleTimeoutMs: opts.idleTimeoutMs?.() ?? 0, route: BEDROCK_ROUTE, body: WIRE_VERSION, notice });
    },
  };
}
