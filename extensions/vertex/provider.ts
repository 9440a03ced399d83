/**
 * The Google Vertex AI provider (vertex/<model>): the Anthropic stream mapping (oceancode/api/anthropic)
 * over @anthropic-ai/vertex-sdk, which posts each step to
 * projects/<project>/locations/<region>/publishers/anthropic/models/<model>:streamRawPredict with an OAuth
 * bearer token from the application-default credentials (adc.ts).
 */
import fs from "node:fs";
import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { type CacheTtl, type MessagesRoute, type MessagesSdk } from "../anthropic/api.js";
import { onceEach, sdkLogger, streamMessages } from "../anthropic/kit.js";
import { type ModelRequest, type Provider, type ProviderEvent } from "../engine/api.js";
import { ProviderError, idleFetch, printableText } from "../engine/kit.js";
import { FIX_ADC, SCOPE, TokenSource, adcPath, adcProject, readAdc } from "./adc.js";
import { describeVertex, vertexModels } from "./models.js";
import { VertexNoToken } from "./errors.js";

export interface VertexPlaces {
  env: NodeJS.ProcessEnv;
  /** provider.vertex.project */
  project?: string;
  /** provider.vertex.region */
  region?: string;
}

export interface VertexOptions {
  places(): VertexPlaces;
  /** provider.vertex.base_url (tests, Private Service Connect); default from the region */
  baseURL(): string | undefined;
  cacheTtl(): CacheTtl;
  idleTimeoutMs?(): number;
  notice?(text: string): void;
  debug?(text: string): void;
}

export const FIX_REGION = "set CLOUD_ML_REGION (e.g. us-east5, europe-west1 or global) or provider.vertex.region";
export const FIX_PROJECT = "set ANTHROPIC_VERTEX_PROJECT_ID (or GOOGLE_CLOUD_PROJECT) or provider.vertex.project, or use credentials that name a project";

export const VERTEX_ROUTE: MessagesRoute = {
  service: "Google Vertex AI",
  fixAuth: `check that the credentials may call aiplatform.endpoints.predict on this project and that the model is enabled in Model Garden: ${FIX_ADC}`,
};

/** The region from CLOUD_ML_REGION (Claude Code's name) or config. */
export function vertexRegion(p: VertexPlaces): string | undefined {
  return p.env.CLOUD_ML_REGION || p.region || undefined;
}

/** The bearer token and project for one step: the ADC file's own token source, or the metadata server's. */
interface Auth {
  token(signal: AbortSignal): Promise<string>;
  project(): Promise<string | undefined>;
}

type GoogleAuthModule = typeof import("google-auth-library");

function metadataAuth(): Auth {
  // no ADC file: on Google Cloud (GCE, Cloud Run, GKE) the metadata server holds the attached account
  let auth: Promise<InstanceType<GoogleAuthModule["GoogleAuth"]>> | undefined;
  const load = () =>
    (auth ??= import("google-auth-library").then((m: GoogleAuthModule & { default?: GoogleAuthModule }) => {
      // a CommonJS package: bundled, its exports arrive under `default`
      const GoogleAuth = m.GoogleAuth ?? m.default!.GoogleAuth;
      return new GoogleAuth({ scopes: SCOPE });
    }));
  return {
    async project() {
      try {
        return (await (await load()).getProjectId()) || undefined;
      } catch {
        return undefined;
      }
    },
    async token() {
      try {
        const t = await (await (await load()).getClient()).getAccessToken();
        if (!t.token) throw VertexNoToken();
        return t.token;
      } catch (e) {
        auth = undefined;
        throw new ProviderError("auth", `no Google credentials for Vertex AI (${printableText((e as Error).message, 200)}): ${FIX_ADC}`);
      }
    },
  };
}

/** the version the route's documentation names for the body */
const WIRE_VERSION = { anthropic_version: "vertex-2023-10-16" };

export function createVertexProvider(opts: VertexOptions): Provider {
  const notice = onceEach(opts.notice);
  let auth: { key: string; auth: Auth } | undefined;
  const authFor = (env: NodeJS.ProcessEnv): Auth => {
    const where = adcPath(env);
    const key = where ? `${where.file}:${fileStamp(where.file)}` : "metadata";
    if (!auth || auth.key !== key) {
      if (!where) auth = { key, auth: metadataAuth() };
      else {
        const creds = readAdc(where);
        const source = new TokenSource(creds, where.file);
        auth = { key, auth: { project: async () => adcProject(creds), token: (s) => source.get(s) } };
      }
    }
    return auth.auth;
  };

  let client: { key: string; sdk: AnthropicVertex; token: { value: string } } | undefined;
  const clientFor = (region: string, project: string, baseURL: string | undefined, token: string): MessagesSdk => {
    const key = JSON.stringify([region, project, baseURL]);
    if (!client || client.key !== key) {
      const holder = { value: token };
      // the SDK asks this for headers on every request: the token of the step in hand, never one it keeps
      const authClient = { projectId: project, getRequestHeaders: async () => new Headers({ authorization: `Bearer ${holder.value}` }) };
      const sdk = new AnthropicVertex({
        region,
        projectId: project,
        ...(baseURL ? { baseURL } : {}),
        authClient: authClient as unknown as NonNullable<ConstructorParameters<typeof AnthropicVertex>[0]>["authClient"],
        maxRetries: 0,
        fetch: idleFetch,
        logger: sdkLogger("vertex sdk", opts.debug),
      });
      client = { key, sdk, token: holder };
    }
    client.token.value = token;
    return client.sdk as unknown as MessagesSdk;
  };

  // what is cheap to know before a prompt is recorded: the region, and a named key file that is not there
  const missing = (p: VertexPlaces): ProviderError | undefined => {
    if (!vertexRegion(p)) return new ProviderError("auth", `no Vertex AI region: ${FIX_REGION}`);
    const named = p.env.GOOGLE_APPLICATION_CREDENTIALS;
    if (named && !fs.existsSync(named)) return new ProviderError("auth", `Google credentials ${named} (from GOOGLE_APPLICATION_CREDENTIALS): no such file: ${FIX_ADC}`);
    return undefined;
  };

  return {
    id: "vertex",
    models: vertexModels,
    describe: describeVertex,
    ready: () => missing(opts.places()),
    async *stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      const p = opts.places();
      const noRegion = missing(p);
      if (noRegion) throw noRegion;
      const a = authFor(p.env);
      const token = await a.token(signal);
      const project = p.env.ANTHROPIC_VERTEX_PROJECT_ID || p.env.GOOGLE_CLOUD_PROJECT || p.env.GCLOUD_PROJECT || p.project || (await a.project());
      if (!project) throw new ProviderError("auth", `no Google Cloud project for Vertex AI: ${FIX_PROJECT}`);
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      const sdk = clientFor(vertexRegion(p)!, project, opts.baseURL(), token);
      yield* streamMessages(sdk, req, signal, { cacheTtl: opts.cacheTtl(), idleTimeoutMs: opts.idleTimeoutMs?.() ?? 0, route: VERTEX_ROUTE, body: WIRE_VERSION, notice });
    },
  };
}

/** A file's mtime and size: a rewritten credentials file (a new login) is read again. */
function fileStamp(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return "missing";
  }
}
