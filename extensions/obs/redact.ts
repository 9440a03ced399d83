/**
 * The shared redactor (published through `oceancode/api/obs`): every log sink, crash reports and the
 * telemetry exporter hide secrets with it. Three kinds: the values of secret-looking environment
 * variables (the child environment's name rules, kept here so both use one predicate), API key shapes,
 * and URL credentials. Pure functions, no state beyond a cached matcher per environment object.
 */

/** What a hidden secret is shown as. */
export const REDACTED = "***";

/** The guide's rule (KEY, SECRET, TOKEN anywhere), and passwords anywhere (PGPASSWORD, DBPASSWD). */
const SUBSTRING = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL/i;
/** Whole words of a name (split at _ . -). */
const WORDS = new Set(["PASSWORD", "PASSWORDS", "PASSWD", "PASSPHRASE", "PASS", "PAT", "AUTH", "AUTHORIZATION", "CREDENTIAL", "CREDENTIALS", "CREDS", "PRIVATE", "COOKIE", "COOKIES", "SESSION", "WEBHOOK", "DSN", "SIGNATURE", "SALT", "OTP"]);
/** Names that look like a rule above but are not secrets. */
const NOT_SECRET = new Set(["PWD", "OLDPWD", "XDG_SESSION_ID", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION", "SESSION_MANAGER",
  // agent sockets: a confined command cannot reach them (/tmp and /run/user are hidden); a person's run keeps git over ssh working
  "SSH_AUTH_SOCK", "GPG_AGENT_INFO"]);

/**
 * Is an environment variable's name a secret's? One of its words (split at _ . -) is a secret word, it ends
 * in PWD or PASS (MYSQL_PWD, PGPASS; not PWD/OLDPWD), or it contains KEY, SECRET, TOKEN, PASSWORD, PASSWD,
 * PASSPHRASE or CREDENTIAL anywhere (APIKEY, GHTOKEN, PGPASSWORD).
 */
export function secretName(name: string): boolean {
  const up = name.toUpperCase();
  if (NOT_SECRET.has(up)) return false;
  if (SUBSTRING.test(up)) return true;
  if (/(?:PWD|PASS)$/.test(up)) return true;
  return up.split(/[_.-]+/).some((w) => WORDS.has(w));
}

/** Is a value a secret whatever its name: a URL with a password (scheme://user:pw@host), or a webhook URL (its path is the credential)? */
export function secretValue(value: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i.test(value)) return true;
  return /^https?:\/\/[^/\s]*(?:hooks\.slack\.com|discord(?:app)?\.com\/api\/webhooks|webhook\.office\.com|outlook\.office\.com\/webhook)/i.test(value) || /^https?:\/\/[^\s]*\/webhooks?\//i.test(value);
}

/**
 * Hide the credentials of every URL in `text`: the password of `scheme://user:password@host` and the
 * values of `password=` / `sslpassword=` parameters. User, host, port and path stay (they say what is meant).
 */
export function redactUrl(text: string): string {
  if (!text.includes("://") && !/password=/i.test(text)) return text;
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):([^\s@/]*)@/gi, (_m, head: string) => `${head}:${REDACTED}@`)
    .replace(/\b(password|sslpassword)=([^&\s'"]+)/gi, (_m, k: string) => `${k}=${REDACTED}`);
}

/** API key and credential shapes: Anthropic/OpenAI (sk-ant-…, sk-…), AWS access key ids, GitHub tokens, bearer tokens, x-api-key headers. */
const KEY_SHAPES = /\bsk-ant-[A-Za-z0-9_-]{8,}|\bsk-[A-Za-z0-9_-]{16,}|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/g;
const HEADER_SHAPES = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}|\b(x-api-key["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi;

/** Secret values shorter than this are not redacted by value (AUTH=1 must not hide every "1"). */
const MIN_VALUE = 8;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The values of an environment's secret variables, as one matcher (longest first), or undefined when there are none. */
export function secretValuesMatcher(env: NodeJS.ProcessEnv): RegExp | undefined {
  const values = new Set<string>();
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || v.length < MIN_VALUE) continue;
    if (secretName(k) || secretValue(v)) {
      values.add(v);
      const enc = encodeURIComponent(v);
      if (enc !== v) values.add(enc);
    }
  }
  if (!values.size) return undefined;
  return new RegExp([...values].sort((a, b) => b.length - a.length).map(escapeRe).join("|"), "g");
}

export type Redactor = (text: string) => string;

/** A redactor for one environment (its secret values are read once, here). */
export function redactorFor(env: NodeJS.ProcessEnv): Redactor {
  const values = secretValuesMatcher(env);
  return (text: string): string => {
    let out = values ? text.replace(values, REDACTED) : text;
    out = out.replace(KEY_SHAPES, REDACTED).replace(HEADER_SHAPES, (_m, bearer: string | undefined, header: string | undefined) => `${bearer ?? header ?? ""}${REDACTED}`);
    return redactUrl(out);
  };
}

let cached: { env: NodeJS.ProcessEnv; fn: Redactor } | undefined;

/** The shared redactor over `env` (default process.env): secret env values, key shapes, URL passwords → ***. */
export function redact(text: string, env: NodeJS.ProcessEnv = process.env): string {
  // the environment's secret values are read on first use (a variable set later is still caught by shape)
  if (!cached || cached.env !== env) cached = { env, fn: redactorFor(env) };
  return cached.fn(text);
}
