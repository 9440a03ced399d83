/**
 * The published contract `oceancode/api/trust` (what other extensions and third parties may import).
 *
 * The trust store's public API. Service name: "trust" (TrustService).
 * ~/.oceancode/trust.json is keyed by the project's absolute path; every field is optional on disk.
 */

/** One project's trust decisions. */
export interface ProjectTrust {
  /** may the repo tier's hooks and .mcp.json servers execute? */
  repo: boolean;
  /** per-server overrides that beat `repo` */
  mcp: Record<string, boolean>;
  /** servers held disabled at any tier */
  disabled_mcp: string[];
  /** servers explicitly enabled (beats a config entry's enabled: false) */
  enabled_mcp: string[];
  /** skills explicitly enabled for this project (ids or bare names; beats the project's skills policy) */
  enabled_skills: string[];
  /** the master switch: skills (and, for their owners, MCP tools, hooks, plugin rules) all off here */
  everything_off: boolean;
}

export interface TrustService {
  /** the trust.json path */
  readonly file: string;
  /** The project's record, read fresh from disk. A corrupt or missing file reads as "nothing trusted". */
  get(project: string): ProjectTrust;
  /** Why trust.json cannot be read (corrupt, unreadable), or undefined when it can (or is absent). */
  problem(): string | undefined;
  /** Is the repo tier trusted for this project? (fresh read) */
  repoTrusted(project: string): boolean;
  /** A server's effective trust when it comes from an untrusted tier: its override, else `repo`. */
  mcpTrusted(project: string, name: string): boolean;
  /**
   * Change one project's record atomically (temp file + rename). Throws TrustFileError when the file
   * on disk is corrupt: nothing is overwritten, so nothing is lost.
   */
  update(project: string, change: (t: ProjectTrust) => void): ProjectTrust;
}

/** The code a corrupt trust file is recognised by (errors are matched by code, never by class). */
export const TRUST_FILE_INVALID = "OC_ERR_TRUST_FILE_INVALID" as const;

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    trust: TrustService;
  }
}
