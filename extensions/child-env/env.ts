/**
 * The composed child environment: strip secret-looking names and values, keep exceptions, set extras.
 * A name is a secret when one of its words (split at _ . -) is a secret word (KEY, TOKEN, SECRET, PASSWORD,
 * PASSWD, PAT, AUTH, CREDENTIAL(S), PRIVATE, COOKIE, SESSION, WEBHOOK, ...), when it ends in PWD or PASS
 * (MYSQL_PWD, PGPASS; not PWD/OLDPWD, the working directory), or when it contains KEY, SECRET, TOKEN
 * (the guide's rule: APIKEY, GHTOKEN), PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL anywhere (PGPASSWORD). A value is a secret when it is a URL with a password
 * (postgres://u:pw@h) or a webhook URL.
 */
import { secretName, secretValue } from "../obs/kit.js";

export interface ChildEnvConfig {
  strip?: string[];
  keep?: string[];
  set?: Record<string, string>;
}

/** The name and value rules are the shared redactor's (oceancode/api/obs): one predicate for the child env and the logs. */
export { secretName, secretValue };

function nameMatcher(pattern: string): RegExp {
  const src = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${src}$`, "i");
}

export function composeEnv(env: NodeJS.ProcessEnv, cfg: ChildEnvConfig = {}): NodeJS.ProcessEnv {
  const strip = (cfg.strip ?? []).map(nameMatcher);
  const keep = new Set((cfg.keep ?? []).map((k) => k.toUpperCase()));
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    const secret = secretName(k) || secretValue(v) || strip.some((re) => re.test(k));
    if (secret && !keep.has(k.toUpperCase())) continue;
    out[k] = v;
  }
  for (const [k, v] of Object.entries(cfg.set ?? {})) if (typeof v === "string") out[k] = v;
  return out;
}
