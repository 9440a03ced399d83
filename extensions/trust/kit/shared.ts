/** Implementation published by the kit `oceancode/kit/trust` (moved out of extensions/trust/api.ts, which keeps the types). */
import { type ProjectTrust, TRUST_FILE_INVALID } from "../api.js";

/** Raised by `update` when trust.json cannot be parsed (the user must fix or remove it). */
export class TrustFileError extends Error {
  readonly code = TRUST_FILE_INVALID;
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file} is not a valid trust file (${detail}): fix it or delete it; nothing was changed`);
    this.name = "TrustFileError";
  }
}

/** Is this the error `update` throws for a corrupt trust file (from any copy of this module)? */
export function isTrustFileError(e: unknown): e is Error & { code: typeof TRUST_FILE_INVALID } {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === TRUST_FILE_INVALID && typeof (e as { message?: unknown }).message === "string";
}

export function emptyTrust(): ProjectTrust {
  return { repo: false, mcp: {}, disabled_mcp: [], enabled_mcp: [], enabled_skills: [], everything_off: false };
}
