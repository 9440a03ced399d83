/**
 * The published contract `oceancode/api/auth` (what other extensions and third parties may import).
 *
 * The credentials service (service name "credentials"), offered by the `auth` extension.
 * Providers list it under "optional" and ask it for a key just before each request.
 */

/** Where a key came from: an environment variable, or auth.json in the data dir. */
export type CredentialSource = { kind: "env"; variable: string } | { kind: "file"; file: string };

export interface CredentialsService {
  /** The API key for a provider id ("anthropic", "openai", ...): the env var wins, else auth.json. */
  get(provider: string): string | undefined;
  /** Where get() would take the key from, or undefined when there is none. */
  source(provider: string): CredentialSource | undefined;
  /** Store a key in auth.json (atomic write, mode 0600). */
  set(provider: string, key: string): void;
  /** Remove a stored key; true when one was there. */
  remove(provider: string): boolean;
  /** The env var that holds a provider's key (ANTHROPIC_API_KEY, OPENAI_API_KEY, <ID>_API_KEY). */
  envVar(provider: string): string;
  /** The auth.json path. */
  readonly file: string;
}
