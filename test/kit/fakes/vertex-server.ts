/**
 * A stand-in for Google Vertex AI's Anthropic publisher endpoint and Google's OAuth token endpoint on
 * 127.0.0.1, as @anthropic-ai/vertex-sdk and a service-account key call them:
 *
 *   POST /token   the JWT-bearer grant (the assertion's RS256 signature checked against the key pair the
 *                 stand-in made, its aud = this token_uri, its scope cloud-platform) or a refresh-token
 *                 grant; issues a fresh access token each time
 *   POST /v1/projects/<p>/locations/<r>/publishers/anthropic/models/<model>:streamRawPredict
 *                 the bearer token must be one /token issued, the project and region the expected ones,
 *                 the body Anthropic's with anthropic_version vertex-2023-10-16 and no model; answered as
 *                 SSE by an inner fake Anthropic server (`inner.enqueue(...)`)
 *
 *   GET  /computeMetadata/v1/…   the GCE metadata server (point GCE_METADATA_HOST here): the attached
 *                 account's token (issued like /token's) and the project id; Metadata-Flavor checked
 *
 * `serviceAccountKey()` is a key file whose token_uri points here (write it to disk for
 * GOOGLE_APPLICATION_CREDENTIALS).
 */
import crypto from "node:crypto";
import type http from "node:http";
import { sendJson, startServer, type BaseServer, type FakeServerOptions } from "./common.js";
import type { FakeAnthropicServer } from "./anthropic-server.js";
import { relay, startInner } from "./anthropic-relay.js";

export interface FakeVertexOptions extends FakeServerOptions {
  project: string;
  region: string;
}

export interface VertexRecorded {
  path: string;
  model: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeVertexServer extends BaseServer<Record<string, unknown>> {
  inner: FakeAnthropicServer;
  tokenUri: string;
  /** a service-account key file's JSON, token_uri pointing at this stand-in */
  serviceAccountKey(project?: string): Record<string, string>;
  /** a gcloud ADC (authorized_user) file's JSON with token_uri pointing here */
  userCredentials(): Record<string, string>;
  /** tokens /token issued, in order */
  issued: string[];
  /** accepted streamRawPredict calls */
  predictions: VertexRecorded[];
  refusals: string[];
  /** paths asked of the metadata-server part (/computeMetadata/v1/…) */
  metadataHits: string[];
  /** make /token refuse every grant (a revoked key) */
  revoke(on: boolean): void;
}

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";

export async function startFakeVertex(opts: FakeVertexOptions): Promise<FakeVertexServer> {
  const inner = await startInner();
  const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const clientEmail = `oceancode-test@${opts.project}.iam.gserviceaccount.com`;
  const refreshToken = `1//fake-refresh-${crypto.randomBytes(6).toString("hex")}`;
  const issued: string[] = [];
  const predictions: VertexRecorded[] = [];
  const refusals: string[] = [];
  const metadataHits: string[] = [];
  let revoked = false;
  let tokenUri = "";

  const googleError = (res: http.ServerResponse, code: number, status: string, message: string) => {
    refusals.push(message);
    sendJson(res, code, { error: { code, message, status } });
  };
  const grantError = (res: http.ServerResponse, error: string, why: string) => {
    refusals.push(why);
    sendJson(res, 400, { error, error_description: why });
  };
  const issue = (res: http.ServerResponse) => {
    const token = `ya29.fake-${crypto.randomBytes(12).toString("hex")}`;
    issued.push(token);
    sendJson(res, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
  };

  const base = await startServer<Record<string, unknown>>(opts, async (req, res) => {
    const path = req.path.split("?")[0]!;
    if (req.method === "POST" && path === "/token") {
      const form = new URLSearchParams(req.raw);
      if (revoked) return grantError(res, "invalid_grant", "Invalid JWT Signature.");
      if (form.get("grant_type") === "refresh_token") {
        if (form.get("refresh_token") !== refreshToken) return grantError(res, "invalid_grant", "Bad refresh token");
        return issue(res);
      }
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return grantError(res, "unsupported_grant_type", `grant_type ${form.get("grant_type")}`);
      const [h, c, sig] = (form.get("assertion") ?? "").split(".");
      if (!h || !c || !sig) return grantError(res, "invalid_request", "malformed assertion");
      const ok = crypto.createVerify("RSA-SHA256").update(`${h}.${c}`).verify(publicKey, Buffer.from(sig, "base64url"));
      if (!ok) return grantError(res, "invalid_grant", "Invalid JWT Signature.");
      const claims = JSON.parse(Buffer.from(c, "base64url").toString("utf8")) as { iss?: string; aud?: string; scope?: string; exp?: number; iat?: number };
      if (claims.iss !== clientEmail) return grantError(res, "invalid_grant", `unknown issuer ${claims.iss}`);
      if (claims.aud !== tokenUri) return grantError(res, "invalid_grant", `aud ${claims.aud} is not ${tokenUri}`);
      if (!String(claims.scope ?? "").split(" ").includes(SCOPE)) return grantError(res, "invalid_scope", `scope ${claims.scope}`);
      const now = Date.now() / 1000;
      if (!claims.exp || !claims.iat || claims.exp < now || claims.iat > now + 300) return grantError(res, "invalid_grant", "Invalid JWT: Token must be a short-lived token");
      return issue(res);
    }
    if (path.startsWith("/computeMetadata/v1/")) {
      // the GCE metadata server (GCE_METADATA_HOST points here): the attached account's token and the project
      const flavor = { "metadata-flavor": "Google" };
      if (req.headers["metadata-flavor"] !== "Google") return sendJson(res, 403, { error: "Missing Metadata-Flavor:Google header" }, flavor);
      metadataHits.push(path);
      if (path === "/computeMetadata/v1/instance" || path === "/computeMetadata/v1/instance/") return sendJson(res, 200, {}, flavor);
      if (path === "/computeMetadata/v1/instance/service-accounts/default/token") {
        const token = `ya29.metadata-${crypto.randomBytes(12).toString("hex")}`;
        issued.push(token);
        return sendJson(res, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" }, flavor);
      }
      if (path === "/computeMetadata/v1/project/project-id") {
        res.writeHead(200, { "content-type": "application/text", ...flavor });
        return void res.end(opts.project);
      }
      res.writeHead(404, { "content-type": "text/html", ...flavor });
      return void res.end("not found");
    }
    const m = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/.exec(path);
    if (req.method !== "POST" || !m) return googleError(res, 404, "NOT_FOUND", `no route ${req.method} ${req.path}`);
    const auth = String(req.headers.authorization ?? "");
    if (!auth.startsWith("Bearer ") || !issued.includes(auth.slice(7))) return googleError(res, 401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token.");
    const [, project, region, rawModel] = m;
    if (decodeURIComponent(project!) !== opts.project) return googleError(res, 403, "PERMISSION_DENIED", `Permission denied on project ${project}`);
    if (decodeURIComponent(region!) !== opts.region) return googleError(res, 400, "FAILED_PRECONDITION", `location ${region} is not ${opts.region}`);
    const body = req.body;
    if (body.anthropic_version !== "vertex-2023-10-16") return googleError(res, 400, "INVALID_ARGUMENT", `anthropic_version is ${JSON.stringify(body.anthropic_version)}`);
    if ("model" in body) return googleError(res, 400, "INVALID_ARGUMENT", "model: Extra inputs are not permitted");
    const model = decodeURIComponent(rawModel!);
    predictions.push({ path: req.path, model, headers: req.headers, body });
    const { anthropic_version: _v, ...rest } = body;
    const reply = await relay(inner, { ...rest, model, stream: true }, res);
    if (reply.status !== 200) {
      // Vertex passes the model's Anthropic-shaped error through
      const headers: Record<string, string> = {};
      const ra = reply.headers.get("retry-after");
      if (ra) headers["retry-after"] = ra;
      return sendJson(res, reply.status, await reply.json(), headers);
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    try {
      for await (const ev of reply.events()) res.write(`event: ${ev.event}\ndata: ${ev.data}\n\n`);
      res.end();
    } catch {
      res.socket?.destroy();
    }
  });
  tokenUri = `${base.url}/token`;
  const closeBase = base.close;
  return Object.defineProperties(base, {
    inner: { value: inner },
    tokenUri: { value: tokenUri },
    issued: { value: issued },
    predictions: { value: predictions },
    refusals: { value: refusals },
    metadataHits: { value: metadataHits },
    revoke: { value: (on: boolean) => void (revoked = on) },
    serviceAccountKey: {
      value: (project = opts.project) => ({
        type: "service_account",
        project_id: project,
        private_key_id: "fake-key-1",
        private_key: pem,
        client_email: clientEmail,
        client_id: "100000000000000000001",
        auth_uri: `${base.url}/auth`,
        token_uri: tokenUri,
      }),
    },
    userCredentials: { value: () => ({ type: "authorized_user", client_id: "fake-client.apps.googleusercontent.com", client_secret: "fake-secret", refresh_token: refreshToken, quota_project_id: opts.project, token_uri: tokenUri }) },
    close: {
      value: async () => {
        await inner.close();
        await closeBase();
      },
    },
  }) as FakeVertexServer;
}
