/** Implementation published by the kit `oceancode/kit/trust` (moved out of extensions/trust/api.ts, which keeps the types). */
import { type ProjectTrust, TRUST_FILE_INVALID } from "../api.js";

/** Raised by `update` when trust.json cannot be parsed (the user must fix or remove it): OC_ERR_TRUST_FILE_INVALID. */
export { TrustFileInvalid } from "../errors.js";

/** Is this the error `update` throws for a corrupt trust file (from any copy of this module)? */
export function isTrustFileError(e: unknown): e is Error & { code: typeof TRUST_FILE_INVALID } {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === TRUST_FILE_INVALID && typeof (e as { message?: unknown }).message === "string";
}

export function emptyTrust(): ProjectTrust {
  return { repo: false, mcp: {}, disabled_mcp: [], enabled_mcp: [], enabled_skills: [], everything_off: false };
}
