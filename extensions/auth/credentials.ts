/** The credentials service: env vars win, else auth.json. Re-reads the file only when it changed. */
import fs from "node:fs";
import path from "node:path";
import type { CredentialSource, CredentialsService } from "./api.js";
import { isApiKey, readAuthFile, writeAuthFile, type AuthFile } from "./store.js";

import { authOf } from "./providers.js";

/** The env vars that hold a provider's key, first set wins (GOOGLE_API_KEY, then GEMINI_API_KEY). */
export function envVarsFor(provider: string): string[] {
  const a = authOf(provider);
  return a.kind === "key" ? a.env : [`${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`];
}

export function envVarFor(provider: string): string {
  return envVarsFor(provider)[0]!;
}

export function authFilePath(dataDir: string): string {
  return path.join(dataDir, "auth.json");
}

export function createCredentials(opts: { dataDir: string; env: NodeJS.ProcessEnv; warn?: (msg: string) => void }): CredentialsService {
  const file = authFilePath(opts.dataDir);
  let cache: { stamp: string; data: AuthFile } | undefined;
  let warned = "";

  const load = (): AuthFile => {
    let stamp: string;
    try {
      const st = fs.statSync(file);
      stamp = `${st.mtimeMs}:${st.size}`;
    } catch {
      return {};
    }
    if (cache?.stamp === stamp) return cache.data;
    try {
      cache = { stamp, data: readAuthFile(file) };
      return cache.data;
    } catch (e) {
      // a broken file means "no stored keys" for reads; one warning per distinct problem
      const msg = (e as Error).message;
      if (msg !== warned) opts.warn?.(msg);
      warned = msg;
      return {};
    }
  };

  const envHit = (provider: string): { variable: string; value: string } | undefined => {
    for (const variable of envVarsFor(provider)) {
      const v = opts.env[variable]?.trim();
      if (v) return { variable, value: v };
    }
    return undefined;
  };
  const fromEnv = (provider: string): string | undefined => envHit(provider)?.value;

  return {
    file,
    envVar: envVarFor,
    get(provider) {
      const entry = load()[provider];
      return fromEnv(provider) ?? (isApiKey(entry) ? entry.key : undefined);
    },
    source(provider): CredentialSource | undefined {
      const hit = envHit(provider);
      if (hit) return { kind: "env", variable: hit.variable };
      return isApiKey(load()[provider]) ? { kind: "file", file } : undefined;
    },
    set(provider, key) {
      // read strictly: a malformed file is reported, never overwritten (it may hold other keys)
      const data = readAuthFile(file);
      data[provider] = { type: "api", key };
      writeAuthFile(file, data);
      cache = undefined;
    },
    record(id) {
      const entry = load()[id];
      return entry && !isApiKey(entry) ? structuredClone(entry) : undefined;
    },
    setRecord(id, value) {
      const data = readAuthFile(file);
      const had = id in data;
      if (value) data[id] = { ...value, type: typeof value.type === "string" && value.type !== "api" ? value.type : "record" };
      else if (had) delete data[id];
      else return false;
      writeAuthFile(file, data);
      cache = undefined;
      return had;
    },
    remove(provider) {
      const data = readAuthFile(file);
      if (!data[provider]) return false;
      delete data[provider];
      writeAuthFile(file, data);
      cache = undefined;
      return true;
    },
  };
}
