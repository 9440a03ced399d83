/**
 * OAuth for remote MCP servers, on the SDK's client auth (discovery, dynamic client registration, PKCE,
 * token exchange and refresh). What a login earns is kept in the credentials store (auth.json, mode 0600)
 * as the record `mcp:<server>`: the server URL it was granted for, the registered client, the tokens.
 *
 * A session only ever *uses* a record (its access token, refreshed when the server answers 401); it never
 * starts an authorization on its own: without a usable record the server reads needs-auth and the user runs
 * `oceancode mcp login <name>` (client/login.ts), the one place a browser is sent anywhere.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CredentialRecord } from "../../auth/api.js";
import { McpNoAuthorization, McpNoVerifier } from "../errors.js";

/** The slice of the credentials service this needs (extensions/auth). */
export interface OAuthStore {
  record(id: string): CredentialRecord | undefined;
  setRecord(id: string, value: CredentialRecord | undefined): boolean;
}

export interface McpOAuthRecord {
  type: "oauth";
  /** the server URL the grant is for: a record is never presented to another URL */
  url: string;
  /** the loopback redirect the client was registered with */
  redirectUrl: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** when the tokens were saved (ms since the epoch) */
  savedAt?: number;
}

export function recordId(server: string): string {
  return `mcp:${server}`;
}

export function readRecord(store: OAuthStore, server: string, url: string): McpOAuthRecord | undefined {
  const r = store.record(recordId(server)) as Partial<McpOAuthRecord> | undefined;
  if (!r || r.type !== "oauth" || r.url !== url || typeof r.redirectUrl !== "string") return undefined;
  return r as McpOAuthRecord;
}

export function clientMetadata(redirectUrl: string): OAuthClientMetadata {
  return {
    client_name: "oceancode",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}

/** What both providers share: the record, read fresh and written back whole on every change. */
abstract class RecordProvider implements OAuthClientProvider {
  constructor(
    protected readonly store: OAuthStore,
    protected readonly server: string,
    protected readonly url: string,
  ) {}

  abstract get redirectUrl(): string;
  abstract redirectToAuthorization(authorizationUrl: URL): void;
  abstract saveCodeVerifier(codeVerifier: string): void;
  abstract codeVerifier(): string;

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadata(this.redirectUrl);
  }

  protected current(): McpOAuthRecord {
    return readRecord(this.store, this.server, this.url) ?? { type: "oauth", url: this.url, redirectUrl: this.redirectUrl };
  }

  protected write(change: (r: McpOAuthRecord) => void): void {
    const r = this.current();
    change(r);
    this.store.setRecord(recordId(this.server), r as unknown as CredentialRecord);
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const r = readRecord(this.store, this.server, this.url);
    // a client registered for another redirect (another login's port) is not this one
    return r?.client && r.redirectUrl === this.redirectUrl ? r.client : undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.write((r) => {
      r.client = client;
      r.redirectUrl = this.redirectUrl;
    });
  }

  tokens(): OAuthTokens | undefined {
    return readRecord(this.store, this.server, this.url)?.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.write((r) => {
      r.tokens = tokens;
      r.savedAt = Date.now();
    });
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier" || scope === "discovery") return;
    if (!readRecord(this.store, this.server, this.url)) return;
    if (scope === "all") {
      this.store.setRecord(recordId(this.server), undefined);
      return;
    }
    this.write((r) => {
      delete r.tokens;
      if (scope === "client") delete r.client;
    });
  }
}

/**
 * A session's provider: present the stored tokens, refresh them when the server says 401, save what the
 * refresh returns. An authorization it cannot finish alone (no refresh token, refresh refused) ends in
 * the SDK's UnauthorizedError, which the connection reads as needs-auth.
 */
export class SessionOAuthProvider extends RecordProvider {
  private readonly stored: McpOAuthRecord;

  constructor(store: OAuthStore, server: string, record: McpOAuthRecord) {
    super(store, server, record.url);
    this.stored = record;
  }

  get redirectUrl(): string {
    return this.stored.redirectUrl;
  }

  redirectToAuthorization(): void {
    // never from a session: the user logs in with `oceancode mcp login`
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw McpNoAuthorization();
  }
}

/** The login's provider: a fresh PKCE verifier in memory, the browser sent to the authorization URL. */
export class LoginOAuthProvider extends RecordProvider {
  private verifier?: string;
  /** tokens saved by this login: an older grant is not reused (a login always asks anew) */
  private fresh = false;

  constructor(
    store: OAuthStore,
    server: string,
    url: string,
    private readonly redirect: string,
    private readonly onAuthorize: (authorizationUrl: URL) => void,
    private readonly expectedState: string,
  ) {
    super(store, server, url);
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  state(): string {
    return this.expectedState;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.onAuthorize(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  override tokens(): OAuthTokens | undefined {
    return this.fresh ? super.tokens() : undefined;
  }

  override saveTokens(tokens: OAuthTokens): void {
    super.saveTokens(tokens);
    this.fresh = true;
  }

  codeVerifier(): string {
    if (!this.verifier) throw McpNoVerifier();
    return this.verifier;
  }
}

/** The session's auth provider for a remote server, or undefined when no login is stored for its URL. */
export function sessionAuthProvider(store: OAuthStore | undefined, server: string, url: string): SessionOAuthProvider | undefined {
  const r = store ? readRecord(store, server, url) : undefined;
  return store && r?.tokens ? new SessionOAuthProvider(store, server, r) : undefined;
}
