/**
 * Tighten-only config from an untrusted layer (a git-tracked project .oceancode/ before the user trusts
 * the repo). The kernel knows nothing about what "stricter" means for a feature: each extension says it
 * in its config schema with the `x-oc-untrusted` keyword, and everything unmarked is held.
 *
 *   "merge"                          neutral: an untrusted layer may set it like any other
 *   "append"                         an array: untrusted entries are added after the trusted ones
 *   { "append": "<regex>" }          the same, for string entries that match (e.g. deny/ask rules only)
 *   { "stricter": [loosest, …, strictest], "unset"?: value }
 *                                    a scalar: taken only when it ranks above the value in force
 *                                    (`unset` names the rank of an unset key: the feature's real default)
 *
 * A marked object applies to its whole subtree; an unmarked object is walked into its properties.
 */

// config.ts imports this module, so the one-line check is kept here rather than imported back (no file cycle)
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const UNTRUSTED_KEYWORD = "x-oc-untrusted";

type Policy = "merge" | "append" | { append: string } | { stricter: unknown[]; unset?: unknown };

export interface Tightened {
  /** what the untrusted layer may contribute (array entries for append keys are only the new ones) */
  value: Record<string, unknown>;
  /** dotted keys whose arrays are appended to what lower layers set, not replaced */
  append: Set<string>;
  /** dotted keys (or array entries, as `key[i]`) that were held */
  held: string[];
}

function policyOf(schema: unknown): Policy | undefined {
  if (!isPlainObject(schema)) return undefined;
  const p = schema[UNTRUSTED_KEYWORD];
  if (p === "merge" || p === "append") return p;
  if (isPlainObject(p) && typeof p.append === "string") return { append: p.append };
  if (isPlainObject(p) && Array.isArray(p.stricter)) return { stricter: p.stricter, ...("unset" in p ? { unset: p.unset } : {}) };
  return undefined;
}

function rank(order: unknown[], v: unknown): number {
  return order.findIndex((x) => JSON.stringify(x) === JSON.stringify(v));
}

/**
 * Keep of `layer` only what `schemas` (section -> schema) let an untrusted layer set, judged against
 * `current`, the config merged from the layers below it.
 */
export function tightenLayer(layer: Record<string, unknown>, current: Record<string, unknown>, schemas: ReadonlyMap<string, object>): Tightened {
  const out: Tightened = { value: {}, append: new Set(), held: [] };
  for (const [section, v] of Object.entries(layer)) {
    if (section === "$schema") continue;
    const schema = schemas.get(section);
    if (!schema) continue; // an unknown section: reported as such, and ignored at every tier
    const kept = walk(v, current[section], schema, section, out);
    if (kept !== undefined) out.value[section] = kept;
  }
  return out;
}

function hold(key: string, out: Tightened): undefined {
  out.held.push(key);
  return undefined;
}

function walk(v: unknown, cur: unknown, schema: object, key: string, out: Tightened): unknown {
  const policy = policyOf(schema);
  if (policy === "merge") return v;
  if (policy === "append" || (isPlainObject(policy) && "append" in policy)) {
    if (!Array.isArray(v)) return hold(key, out);
    const re = isPlainObject(policy) && "append" in policy ? new RegExp(policy.append) : undefined;
    const keep = v.filter((e, i) => {
      const ok = !re || (typeof e === "string" && re.test(e));
      if (!ok) out.held.push(`${key}[${i}] ${JSON.stringify(e)}`);
      return ok;
    });
    if (!keep.length) return undefined;
    out.append.add(key);
    return keep;
  }
  if (isPlainObject(policy) && "stricter" in policy) {
    const order = policy.stricter;
    const now = rank(order, cur === undefined && "unset" in policy ? policy.unset : cur);
    const want = rank(order, v);
    return want >= 0 && want > now ? v : hold(key, out);
  }
  const props = isPlainObject(schema) && isPlainObject((schema as Record<string, unknown>).properties) ? ((schema as Record<string, unknown>).properties as Record<string, object>) : undefined;
  if (!props || !isPlainObject(v)) return hold(key, out);
  const kept: Record<string, unknown> = {};
  for (const [k, sub] of Object.entries(v)) {
    const s = props[k];
    const r = s ? walk(sub, isPlainObject(cur) ? cur[k] : undefined, s, `${key}.${k}`, out) : hold(`${key}.${k}`, out);
    if (r !== undefined) kept[k] = r;
  }
  return Object.keys(kept).length ? kept : undefined;
}
