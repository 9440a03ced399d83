/**
 * Wildcard patterns for rules: `*` any run of characters, `?` one; a trailing " *" also matches the bare
 * command. One syntax for every rule that names commands or paths: the shell guard's shell.allow /
 * shell.deny match with it, and the permission rules take it from `oceancode/api/shell-guard` (api.ts).
 */
const cache = new Map<string, RegExp>();

function body(pattern: string): string {
  let src = "";
  for (const ch of pattern) src += ch === "*" ? "[\\s\\S]*" : ch === "?" ? "[\\s\\S]" : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  return src;
}

export function wildcard(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re) return re;
  const src = pattern.endsWith(" *") && pattern.length > 2 ? `${body(pattern.slice(0, -2))}(?:\\s[\\s\\S]*)?` : body(pattern);
  re = new RegExp(`^${src}$`);
  if (cache.size > 2000) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** A bash rule pattern against a command ("git push *" matches "git push" and "git push origin"). */
export function matchBash(pattern: string, command: string): boolean {
  return wildcard(pattern.trim()).test(command.trim());
}
