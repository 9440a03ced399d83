/**
 * Coded errors. Every error the kernel raises for a user-fixable problem carries an
 * `OC_ERR_*` code, a one-line message, and optionally a hint on how to fix it.
 * Hosts print `message` (and `hint`) without a stack unless `-v` is set.
 */
export const ErrorCodes = {
  MANIFEST_INVALID: "OC_ERR_MANIFEST_INVALID",
  MANIFEST_UNREADABLE: "OC_ERR_MANIFEST_UNREADABLE",
  KERNEL_RANGE: "OC_ERR_KERNEL_RANGE",
  DEPENDENCY_MISSING: "OC_ERR_DEPENDENCY_MISSING",
  DEPENDENCY_DISABLED: "OC_ERR_DEPENDENCY_DISABLED",
  DEPENDENCY_CYCLE: "OC_ERR_DEPENDENCY_CYCLE",
  DUPLICATE_SERVICE: "OC_ERR_DUPLICATE_SERVICE",
  DUPLICATE_COMMAND: "OC_ERR_DUPLICATE_COMMAND",
  SERVICE_NOT_DECLARED: "OC_ERR_SERVICE_NOT_DECLARED",
  SERVICE_NOT_PROVIDED: "OC_ERR_SERVICE_NOT_PROVIDED",
  ACTIVATION_FAILED: "OC_ERR_ACTIVATION_FAILED",
  CONFIG_PARSE: "OC_ERR_CONFIG_PARSE",
  CONFIG_INVALID: "OC_ERR_CONFIG_INVALID",
  CONFIG_UNREADABLE: "OC_ERR_CONFIG_UNREADABLE",
  REQUIREMENTS_REFUSED: "OC_ERR_REQUIREMENTS_REFUSED",
  REPLACE_INVALID: "OC_ERR_REPLACE_INVALID",
  HOOK_UNKNOWN_STAGE: "OC_ERR_HOOK_STAGE",
  ACTIVATION_TIMEOUT: "OC_ERR_ACTIVATION_TIMEOUT",
  TAP_TIMEOUT: "OC_ERR_TAP_TIMEOUT",
  TAP_FAILED: "OC_ERR_TAP_FAILED",
  USAGE: "OC_ERR_USAGE",
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export class OcError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  constructor(code: ErrorCode, message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "OcError";
    this.code = code;
    this.hint = options?.hint;
  }
  /** One line for a terminal: code, message, hint. */
  toLine(): string {
    return `${this.code}: ${this.message}${this.hint ? `; ${this.hint}` : ""}`;
  }
}

export function isOcError(e: unknown): e is OcError {
  return e instanceof OcError;
}

export function errorMessage(e: unknown): string {
  if (e instanceof OcError) return e.toLine();
  if (e instanceof Error) return e.message;
  return String(e);
}
