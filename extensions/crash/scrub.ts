/**
 * The crash report's own last line of defence against secrets, applied after the shared redactor
 * (obs.redact): values of environment variables whose name says secret, URL passwords, and strings shaped
 * like API keys become ***. A crash report is written when anything may be broken, obs included.
 */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION_ID/i;
const KEY_SHAPES = [/\bsk-[A-Za-z0-9_-]{8,}/g, /\b(?:ghp|gho|ghs|ghu|github_pat)_[A-Za-z0-9_]{12,}/g, /\bxox[abposr]-[A-Za-z0-9-]{8,}/g, /\bAKIA[0-9A-Z]{16}\b/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g];

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A scrubber over the secret values of `env` (longest first, so a value containing another goes whole). */
export function makeScrub(env: NodeJS.ProcessEnv): (text: string) => string {
  const values = Object.entries(env)
    .filter(([k, v]) => SECRET_NAME.test(k) && typeof v === "string" && v.length >= 6)
    .map(([, v]) => v as string)
    .sort((a, b) => b.length - a.length);
  const byValue = values.length ? new RegExp(values.map(escape).join("|"), "g") : undefined;
  return (text: string) => {
    let t = byValue ? text.replace(byValue, "***") : text;
    // scheme://user:password@host -> scheme://user:***@host
    t = t.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+@/gi, "$1***@");
    for (const re of KEY_SHAPES) t = t.replace(re, "***");
    return t;
  };
}
