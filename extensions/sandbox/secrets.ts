/**
 * What a confined command must not read or write: the user's secrets (hidden: an empty read-only tmpfs
 * over a folder, /dev/null over a file) and the project's protected paths (read-only, so a command cannot
 * plant hooks, config, MCP servers or agent settings that later run unconfined).
 */
import path from "node:path";

/** Under HOME: credentials, keys, tokens, keyrings and shell/REPL histories (which hold pasted secrets). */
export const HOME_SECRETS: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".config/hub",
  ".config/op",
  ".config/doctl",
  ".config/git/credentials",
  ".git-credentials",
  ".docker/config.json",
  ".kube",
  ".oci",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  ".pgpass",
  ".my.cnf",
  ".vault-token",
  ".terraform.d/credentials.tfrc.json",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  ".password-store",
  ".local/share/keyrings",
  ".claude/.credentials.json",
  ".claude.json",
  ".codex/auth.json",
  ".bash_history",
  ".zsh_history",
  ".local/share/fish/fish_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".lesshst",
];

/** Outside HOME: sockets that hand out more than the sandbox allows (docker is root). */
export const SYSTEM_SECRETS: readonly string[] = ["/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock"];

/**
 * In the project: read-only for a confined command. Each makes something run or loosen later (git hooks
 * and config, oceancode/Claude/Cursor/opencode/Grok settings, MCP servers, editor tasks, direnv).
 * `dir` says what to create as an empty mount point when it is absent.
 */
export const PROTECTED: ReadonlyArray<{ name: string; dir: boolean }> = [
  { name: ".git", dir: true },
  { name: ".oceancode", dir: true },
  { name: ".claude", dir: true },
  { name: ".cursor", dir: true },
  { name: ".opencode", dir: true },
  { name: ".grok", dir: true },
  { name: ".vscode", dir: true },
  { name: ".mcp.json", dir: false },
  { name: ".gitmodules", dir: false },
  { name: ".envrc", dir: false },
];

export interface SecretRoots {
  home: string;
  /** oceancode's own folders: config (keys), data (sessions, tool output), state, ~/.oceancode (trust, auth) */
  own: string[];
  uid?: number;
}

/** Every path to hide, absolute (existing or not; the caller keeps those that exist). */
export function secretPaths(r: SecretRoots): string[] {
  const out = HOME_SECRETS.map((p) => path.join(r.home, p));
  out.push(...r.own, ...SYSTEM_SECRETS);
  // the per-user runtime dir holds the ssh/gpg agents' and the keyring's sockets
  if (r.uid !== undefined) out.push(`/run/user/${r.uid}`);
  return out;
}
