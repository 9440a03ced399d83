/** The composed child environment: strip secret-looking names, keep exceptions, set extras. */
export interface ChildEnvConfig {
  strip?: string[];
  keep?: string[];
  set?: Record<string, string>;
}

const DEFAULT_STRIP = /KEY|SECRET|TOKEN/i;

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
    const secret = DEFAULT_STRIP.test(k) || strip.some((re) => re.test(k));
    if (secret && !keep.has(k.toUpperCase())) continue;
    out[k] = v;
  }
  for (const [k, v] of Object.entries(cfg.set ?? {})) if (typeof v === "string") out[k] = v;
  return out;
}
