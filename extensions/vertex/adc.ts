/**
 * Application-default credentials for Vertex AI, as Google's tools find them: the file named by
 * GOOGLE_APPLICATION_CREDENTIALS, else gcloud's ADC file (`gcloud auth application-default login`:
 * $CLOUDSDK_CONFIG or ~/.config/gcloud, application_default_credentials.json). A service-account key is
 * exchanged at its own `token_uri` (google-auth-library always posts to Google's endpoint, which a private
 * or test endpoint needs otherwise), a gcloud user file by its refresh token. Tokens live in memory only,
 * until a minute before they expire; nothing is written anywhere.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ProviderError, printableText } from "../engine/kit.js";

export const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
export const FIX_ADC =
  "set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, or run `gcloud auth application-default login`; oceancode stores no Google credentials";
const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

interface ServiceAccountKey {
  type: "service_account";
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
  token_uri?: string;
}
interface AuthorizedUser {
  type: "authorized_user";
  client_id: string;
  client_secret: string;
  refresh_token: string;
  quota_project_id?: string;
  token_uri?: string;
}
export type AdcFile = ServiceAccountKey | AuthorizedUser;

/** The ADC file to use and where it came from, or undefined when neither place has one. */
export function adcPath(env: NodeJS.ProcessEnv): { file: string; from: string } | undefined {
  if (env.GOOGLE_APPLICATION_CREDENTIALS) return { file: env.GOOGLE_APPLICATION_CREDENTIALS, from: "GOOGLE_APPLICATION_CREDENTIALS" };
  const dir = env.CLOUDSDK_CONFIG || (env.HOME ? path.join(env.HOME, ".config", "gcloud") : undefined);
  const file = dir ? path.join(dir, "application_default_credentials.json") : undefined;
  return file && fs.existsSync(file) ? { file, from: "gcloud's application-default credentials" } : undefined;
}

/** Read and check an ADC file; a clear auth error names the file and what is wrong (never its content). */
export function readAdc(where: { file: string; from: string }): AdcFile {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(where.file, "utf8"));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "not a readable JSON file";
    throw new ProviderError("auth", `Google credentials ${where.file} (from ${where.from}): ${why}: ${FIX_ADC}`);
  }
  const o = (json ?? {}) as Record<string, unknown>;
  const has = (k: string) => typeof o[k] === "string" && o[k] !== "";
  if (o.type === "service_account" && has("client_email") && has("private_key")) return o as unknown as ServiceAccountKey;
  if (o.type === "authorized_user" && has("client_id") && has("client_secret") && has("refresh_token")) return o as unknown as AuthorizedUser;
  throw new ProviderError("auth", `Google credentials ${where.file} (from ${where.from}): type '${String(o.type)}' is not a service-account key or a gcloud user file with its fields: ${FIX_ADC}`);
}

/** The project a credentials file names (a service account's own, a user file's quota project). */
export function adcProject(f: AdcFile): string | undefined {
  return f.type === "service_account" ? f.project_id : f.quota_project_id;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

/** The token request for a credentials file: a signed JWT assertion, or a refresh-token grant. */
function tokenRequest(f: AdcFile): { uri: string; body: URLSearchParams } {
  if (f.type === "authorized_user") {
    return { uri: f.token_uri || GOOGLE_TOKEN_URI, body: new URLSearchParams({ grant_type: "refresh_token", client_id: f.client_id, client_secret: f.client_secret, refresh_token: f.refresh_token }) };
  }
  const uri = f.token_uri || GOOGLE_TOKEN_URI;
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: "RS256", typ: "JWT", ...(f.private_key_id ? { kid: f.private_key_id } : {}) }));
  const claims = b64url(JSON.stringify({ iss: f.client_email, scope: SCOPE, aud: uri, iat: now, exp: now + 3600 }));
  const signature = crypto.createSign("RSA-SHA256").update(`${header}.${claims}`).sign(f.private_key);
  return { uri, body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: `${header}.${claims}.${b64url(signature)}` }) };
}

/** Access tokens for one credentials file, fetched when missing or about to expire. */
export class TokenSource {
  private token: { value: string; until: number } | undefined;
  private pending: Promise<string> | undefined;
  constructor(
    private readonly creds: AdcFile,
    private readonly file: string,
  ) {}

  get(signal: AbortSignal): Promise<string> {
    if (this.token && Date.now() < this.token.until) return Promise.resolve(this.token.value);
    this.pending ??= this.fetch(signal).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetch(signal: AbortSignal): Promise<string> {
    let req: { uri: string; body: URLSearchParams };
    try {
      req = tokenRequest(this.creds);
    } catch (e) {
      throw new ProviderError("auth", `Google credentials ${this.file}: the private key cannot sign (${printableText((e as Error).message, 120)}): ${FIX_ADC}`);
    }
    let res: Response;
    try {
      res = await fetch(req.uri, { method: "POST", body: req.body, headers: { "content-type": "application/x-www-form-urlencoded" }, signal });
    } catch (e) {
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      throw new ProviderError("network", `cannot reach Google's token endpoint ${req.uri}: ${printableText((e as Error).message, 160)}`);
    }
    const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown };
    if (!res.ok || typeof body.access_token !== "string") {
      const why = printableText([body.error, body.error_description].filter((x) => typeof x === "string").join(": ") || `HTTP ${res.status}`, 200);
      if (res.status >= 500) throw new ProviderError("server", `Google's token endpoint ${req.uri} ${res.status}: ${why}`, { status: res.status });
      throw new ProviderError("auth", `Google refused the credentials in ${this.file} (${why}): ${FIX_ADC}`, { status: res.status });
    }
    const ttl = typeof body.expires_in === "number" ? body.expires_in : 3600;
    this.token = { value: body.access_token, until: Date.now() + Math.max(0, ttl - 60) * 1000 };
    return body.access_token;
  }
}
