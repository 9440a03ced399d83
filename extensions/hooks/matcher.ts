/**
 * Matchers as Claude Code reads them: "*", "" or absent match everything; a plain name or a list of
 * names joined by "|" (or ",") matches exactly; anything else is an unanchored JavaScript regex.
 * A regex that does not compile matches nothing (reported once by the caller).
 */
const PLAIN = /^[A-Za-z0-9_\-|, ]+$/;

export type Matcher = (value: string) => boolean;

const cache = new Map<string, Matcher>();

export function compileMatcher(m: string | undefined): Matcher {
  const key = m ?? "";
  const hit = cache.get(key);
  if (hit) return hit;
  let fn: Matcher;
  const t = key.trim();
  if (t === "" || t === "*") fn = () => true;
  else if (PLAIN.test(t)) {
    const names = new Set(t.split(/[|,]/).map((s) => s.trim()).filter(Boolean));
    fn = (v) => names.has(v);
  } else {
    try {
      const re = new RegExp(t);
      fn = (v) => re.test(v);
    } catch {
      fn = () => false;
    }
  }
  cache.set(key, fn);
  return fn;
}

export function matcherIsValid(m: string | undefined): boolean {
  const t = (m ?? "").trim();
  if (t === "" || t === "*" || PLAIN.test(t)) return true;
  try {
    new RegExp(t);
    return true;
  } catch {
    return false;
  }
}
