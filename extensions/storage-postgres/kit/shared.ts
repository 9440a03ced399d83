/** Implementation published by the kit `oceancode/kit/storage-postgres` (moved out of extensions/storage-postgres/api.ts, which keeps the types). */
import { REDACTED } from "../../obs/api.js";
import { redactUrl } from "../../obs/kit.js";

/** The password a URL carries (decoded), or undefined: used to scrub it from driver messages too. */
export function urlPassword(url: string): string | undefined {
  try {
    const u = new URL(url);
    const p = u.password ? decodeURIComponent(u.password) : u.searchParams.get("password") ?? undefined;
    return p || undefined;
  } catch {
    return undefined;
  }
}

/** Scrub a message for display: every URL's credentials, and the literal password wherever it appears. */
export function redactText(text: string, url?: string): string {
  let out = redactUrl(text);
  const pw = url ? urlPassword(url) : undefined;
  if (pw && pw.length >= 3) {
    out = out.split(pw).join(REDACTED);
    const enc = encodeURIComponent(pw);
    if (enc !== pw) out = out.split(enc).join(REDACTED);
  }
  return out;
}
