/**
 * SHIM until extensions/mcp/sources/expand.ts lands (the sources slice owns `${VAR}` expansion); the
 * merge swaps this import for that file. Same signature: `${VAR}` and `${VAR:-default}` in command, args,
 * env, url and headers; an unresolved `${VAR}` stays literal and is named in `unresolved`.
 */
import type { ServerConfig } from "../api.js";

export function expandServer(config: ServerConfig, env: NodeJS.ProcessEnv): { config: ServerConfig; unresolved: string[] } {
  const unresolved: string[] = [];
  const x = (s: string): string =>
    s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, def: string | undefined) => {
      const v = env[name];
      if (v !== undefined && v !== "") return v;
      if (def !== undefined) return def;
      unresolved.push(name);
      return whole;
    });
  const rec = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, x(v)]));
  const out: ServerConfig =
    config.type === "stdio"
      ? { ...config, command: x(config.command), args: config.args.map(x), env: rec(config.env) }
      : { ...config, url: x(config.url), headers: rec(config.headers) };
  return { config: out, unresolved };
}
