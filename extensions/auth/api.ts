/**
 * The published contract `oceancode/api/auth` (what other extensions and third parties may import).
 *
 * The credentials service (service name "credentials"), offered by the `auth` extension.
 * Providers list it under "optional" and ask it for a key just before each request.
 */

/** Where a key came from: an environment variable, or auth.json in the data dir. */
export type CredentialSource = { kind: "env"; variable: string } | { kind: "file"; file: string };

/** A credential record kept in auth.json beside the keys; `type` names its kind ("oauth"), never "api". */
export interface CredentialRecord {
  type: string;
  [field: string]: unknown;
}

export interface CredentialsService {
  /** The API key for a provider id ("anthropic", "openai", ...): the env var wins, else auth.json. */
  get(provider: string): string | undefined;
  /** Where get() would take the key from, or undefined when there is none. */
  source(provider: string): CredentialSource | undefined;
  /** Store a key in auth.json (atomic write, mode 0600). */
  set(provider: string, key: string): void;
  /**
   * A stored credential record other than an API key (e.g. `"mcp:<server>"`: an MCP server's OAuth
   * client and tokens), as a copy; undefined when there is none.
   */
  record(id: string): CredentialRecord | undefined;
  /** Store a record (atomic write, mode 0600); `undefined` removes it. True when one was there before. */
  setRecord(id: string, value: CredentialRecord | undefined): boolean;
  /** Remove a stored key; true when one was there. */
  remove(provider: string): boolean;
  /** The env var that holds a provider's key (ANTHROPIC_API_KEY, OPENAI_API_KEY, <ID>_API_KEY). */
  envVar(provider: string): string;
  /** The auth.json path. */
  readonly file: string;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    credentials: CredentialsService;
  }
}
