/**
 * `oceancode auth status [--json]`: every provider's credential status and where it comes from. Names
 * only (the env var, auth.json's path, the chain's file): a key is never printed, not even masked.
 */
import type { CredentialsService } from "./api.js";
import { authOf, homeOf } from "./providers.js";

export interface ProviderStatus {
  provider: string;
  kind: "key" | "chain" | "login" | "none";
  /** a manifest contributes it (false: known here, its extension is not installed) */
  installed: boolean;
  /** a key or credential is available (always true for "none") */
  ready: boolean;
  /** env / file for a key; chain: what part of the provider's own chain answers; login/none: how */
  source?: { kind: "env"; variable: string } | { kind: "file"; file: string } | { kind: "chain"; detail: string };
  /** one line for people */
  text: string;
}

export function providerStatuses(credentials: CredentialsService, providers: readonly string[], installed: ReadonlySet<string>, env: NodeJS.ProcessEnv): ProviderStatus[] {
  return providers.map((provider): ProviderStatus => {
    const a = authOf(provider);
    const base = { provider, kind: a.kind, installed: installed.has(provider) };
    if (a.kind === "key") {
      const src = credentials.source(provider);
      if (src) return { ...base, ready: true, source: src, text: src.kind === "env" ? `key from ${src.variable}` : `key in ${src.file}` };
      const vars = a.env.join(" or ");
      return { ...base, ready: a.optional === true, text: `${a.optional ? "no key (optional)" : "no key"}: set ${vars} or run oceancode key ${provider}` };
    }
    if (a.kind === "chain") {
      const detail = a.detect(env, homeOf(env));
      const tail = "; oceancode stores nothing for it";
      return detail
        ? { ...base, ready: true, source: { kind: "chain", detail }, text: `its own credential chain: ${detail}${tail}` }
        : { ...base, ready: false, text: `its own credential chain, none found: ${a.how}${tail}` };
    }
    return { ...base, ready: true, text: a.how };
  });
}

export function statusTable(rows: readonly ProviderStatus[]): string {
  const w = Math.max(8, ...rows.map((r) => r.provider.length));
  const lines = rows.map((r) => `${r.provider.padEnd(w)}  ${r.text}${r.installed ? "" : " (extension not installed)"}`);
  return `${"PROVIDER".padEnd(w)}  CREDENTIALS\n${lines.join("\n")}\n`;
}
