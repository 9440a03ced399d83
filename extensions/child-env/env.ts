/**
 * The composed child environment: strip secret-looking names and values, keep exceptions, set extras.
 * A name is a secret when one of its words (split at _ . -) is a secret word (KEY, TOKEN, SECRET, PASSWORD,
 * PASSWD, PAT, AUTH, CREDENTIAL(S), PRIVATE, COOKIE, SESSION, WEBHOOK, ...), when it ends in PWD or PASS
 * (MYSQL_PWD, PGPASS; not PWD/OLDPWD, the working directory), or when it contains KEY, SECRET, TOKEN
 * (the guide's rule: APIKEY, GHTOKEN), PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL anywhere (PGPASSWORD). A value is a secret when it is a URL with a password
 * (postgres://u:pw@h) or a webhook URL.
 */
export interface ChildEnvConfig {
  strip?: string[];
  keep?: string[];
  set?: Record<string, string>;
}

/** The guide's rule (KEY, SECRET, TOKEN anywhere), and passwords anywhere (PGPASSWORD, DBPASSWD). */
const SUBSTRING = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL/i;
/** Whole words of a name (split at _ . -). */
const WORDS = new Set([
  "PASSWORD",
  "PASSWORDS",
  "PASSWD",
  "PASSPHRASE",
  "PASS",
  "PAT",
  "AUTH",
  "AUTHORIZATION",
  "CREDENTIAL",
  "CREDENTIALS",
  "CREDS",
  "PRIVATE",
  "COOKIE",
  "COOKIES",
  "SESSION",
  "WEBHOOK",
  "DSN",
  "SIGNATURE",
  "SALT",
  "OTP",
]);
/** Names that look like a rule above but are not secrets. */
const NOT_SECRET = new Set(["PWD", "OLDPWD", "XDG_SESSION_ID", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION", "SESSION_MANAGER",
  // agent sockets: a confined command cannot reach them (/tmp and /run/user are hidden); a person's run keeps git over ssh working
  "SSH_AUTH_SOCK", "GPG_AGENT_INFO"]);

export function secretName(name: string): boolean {
  const up = name.toUpperCase();
  if (NOT_SECRET.has(up)) return false;
  if (SUBSTRING.test(up)) return true;
  if (/(?:PWD|PASS)$/.test(up)) return true;
  return up.split(/[_.-]+/).some((w) => WORDS.has(w));
}

/** A URL with a password (scheme://user:pw@host), or a webhook URL (its path is the credential). */
export function secretValue(value: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i.test(value)) return true;
  return /^https?:\/\/[^/\s]*(?:hooks\.slack\.com|discord(?:app)?\.com\/api\/webhooks|webhook\.office\.com|outlook\.office\.com\/webhook)/i.test(value) || /^https?:\/\/[^\s]*\/webhooks?\//i.test(value);
}

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
