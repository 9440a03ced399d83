/**
 * `${VAR}` and `${VAR:-default}` in a server's command, args, env values, url and headers, expanded from
 * the environment when the server starts. An unresolved `${VAR}` stays literal (a misconfigured variable
 * is visible, not silently empty) and is reported by name.
 */
import type { ServerConfig } from "../api.js";

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function expandString(s: string, env: NodeJS.ProcessEnv, unresolved: Set<string>): string {
  return s.replace(PATTERN, (whole, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (fallback !== undefined) return fallback;
    if (v === "") return v;
    unresolved.add(name);
    return whole;
  });
}

function expandRecord(r: Record<string, string>, env: NodeJS.ProcessEnv, un: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(r)) out[k] = expandString(v, env, un);
  return out;
}

/** Expand one server's config; `unresolved` names every variable left literal (sorted, once each). */
export function expandServer(config: ServerConfig, env: NodeJS.ProcessEnv): { config: ServerConfig; unresolved: string[] } {
  const un = new Set<string>();
  let out: ServerConfig;
  if (config.type === "stdio") {
    out = {
      type: "stdio",
      command: expandString(config.command, env, un),
      args: config.args.map((a) => expandString(a, env, un)),
      env: expandRecord(config.env, env, un),
      ...(config.cwd !== undefined ? { cwd: expandString(config.cwd, env, un) } : {}),
    };
  } else {
    out = { type: config.type, url: expandString(config.url, env, un), headers: expandRecord(config.headers, env, un) };
  }
  if (config.toolTimeoutS !== undefined) out.toolTimeoutS = config.toolTimeoutS;
  return { config: out, unresolved: [...un].sort() };
}
