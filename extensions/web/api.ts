/**
 * The published contract `oceancode/api/web`: where the browser client is served and the headers its
 * responses carry. The page loads only its own files and talks only to its own server (the HTTP API and
 * SSE): no CDN, no inline script, no eval, never framed.
 */

/** the page */
export const WEB_PAGE_PATH = "/";
/** its assets: `/web/<file>` (one flat folder, names from the build) */
export const WEB_ASSET_PREFIX = "/web/";

/** The Content-Security-Policy of every web client response. */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The headers every web client response carries (the content type is added per file). */
export const WEB_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": WEB_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-cache",
};
