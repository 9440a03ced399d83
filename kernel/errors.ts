/**
 * Coded errors. Every error the kernel raises for a user-fixable problem carries an
 * `OC_ERR_*` code, a one-line message, and optionally a hint on how to fix it.
 * Hosts print `message` (and `hint`) without a stack unless `-v` is set.
 *
 * Errors are recognised BY CODE, never by class identity (architecture rule 14): an extension built
 * against another install of the package has its own copy of `OcError`, and `instanceof` would miss it.
 * The code set is open: the kernel's codes are `ErrorCodes`; an extension adds its own with
 * `registerErrorCodes(owner, codes)`, and `errorCodes()` lists every code with its owner.
 */

/** The kernel's own codes: name -> [code, what it means]. */
const KERNEL_CODES = {
  MANIFEST_INVALID: ["OC_ERR_MANIFEST_INVALID", "an extension's manifest.json breaks its schema"],
  MANIFEST_UNREADABLE: ["OC_ERR_MANIFEST_UNREADABLE", "an extension's manifest.json cannot be read"],
  KERNEL_RANGE: ["OC_ERR_KERNEL_RANGE", "an extension asks for a kernel version this one is not"],
  DEPENDENCY_MISSING: ["OC_ERR_DEPENDENCY_MISSING", "a required service or extension is not installed"],
  DEPENDENCY_DISABLED: ["OC_ERR_DEPENDENCY_DISABLED", "a required service's extension is disabled"],
  DEPENDENCY_CYCLE: ["OC_ERR_DEPENDENCY_CYCLE", "extensions require each other in a cycle"],
  DUPLICATE_SERVICE: ["OC_ERR_DUPLICATE_SERVICE", "two extensions provide the same service"],
  DUPLICATE_COMMAND: ["OC_ERR_DUPLICATE_COMMAND", "two extensions contribute the same command"],
  SERVICE_NOT_DECLARED: ["OC_ERR_SERVICE_NOT_DECLARED", "a service used or provided that the manifest does not declare"],
  SERVICE_NOT_PROVIDED: ["OC_ERR_SERVICE_NOT_PROVIDED", "a declared service was not registered by its extension"],
  ACTIVATION_FAILED: ["OC_ERR_ACTIVATION_FAILED", "an extension's activate() failed"],
  CONFIG_PARSE: ["OC_ERR_CONFIG_PARSE", "a config file is not valid JSON/JSONC"],
  CONFIG_INVALID: ["OC_ERR_CONFIG_INVALID", "a config value breaks its schema"],
  CONFIG_UNREADABLE: ["OC_ERR_CONFIG_UNREADABLE", "a config file cannot be read"],
  REQUIREMENTS_REFUSED: ["OC_ERR_REQUIREMENTS_REFUSED", "managed requirements refuse this setting or extension"],
  REPLACE_INVALID: ["OC_ERR_REPLACE_INVALID", "an extension's `replaces` is invalid"],
  HOOK_UNKNOWN_STAGE: ["OC_ERR_HOOK_STAGE", "a tap names an unknown stage"],
  ACTIVATION_TIMEOUT: ["OC_ERR_ACTIVATION_TIMEOUT", "an extension's code did not load and activate() within OC_ACTIVATION_TIMEOUT_MS"],
  TAP_TIMEOUT: ["OC_ERR_TAP_TIMEOUT", "an async hook tap did not settle within OC_TAP_TIMEOUT_MS"],
  TAP_FAILED: ["OC_ERR_TAP_FAILED", "a hook tap threw"],
  USAGE: ["OC_ERR_USAGE", "a command was called wrongly"],
  ERROR_CODE_INVALID: ["OC_ERR_ERROR_CODE_INVALID", "an error code registered that is not OC_ERR_[A-Z0-9_]+"],
  ERROR_CODE_TAKEN: ["OC_ERR_ERROR_CODE_TAKEN", "an error code registered by two owners"],
} as const;

export const ErrorCodes = Object.fromEntries(Object.entries(KERNEL_CODES).map(([k, [code]]) => [k, code])) as {
  readonly [K in keyof typeof KERNEL_CODES]: (typeof KERNEL_CODES)[K][0];
};

/** One of the kernel's own codes. */
export type KernelErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
/** Any error code: the kernel's or one an extension registered (`OC_ERR_` + upper-case letters, digits, `_`). */
export type ErrorCode = string;

/** What an error code looks like. */
export const ERROR_CODE_PATTERN = /^OC_ERR_[A-Z0-9_]+$/;

/** The owner named for the kernel's own codes in `errorCodes()`. */
export const KERNEL_OWNER = "kernel";

interface CodeEntry {
  owner: string;
  description: string;
}

// one registry per process, shared by every copy of this module (a second install of the package
// loaded beside this one registers into the same table)
const REGISTRY_KEY = Symbol.for("oceancode.errorCodes");
function registry(): Map<string, CodeEntry> {
  const g = globalThis as unknown as Record<symbol, Map<string, CodeEntry> | undefined>;
  let r = g[REGISTRY_KEY];
  if (!r) {
    r = new Map();
    g[REGISTRY_KEY] = r;
  }
  for (const [code, description] of Object.values(KERNEL_CODES)) if (!r.has(code)) r.set(code, { owner: KERNEL_OWNER, description });
  return r;
}

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
    return ocErrorLine(this);
  }
}

/**
 * Add an extension's error codes: `{ CODE_NAME: "OC_ERR_..." }` or `{ "OC_ERR_...": "what it means" }`
 * (either side may hold the code; the other is kept as its description). Registering the same code again
 * for the same owner is a no-op; a code another owner already holds throws OC_ERR_ERROR_CODE_TAKEN.
 */
export function registerErrorCodes(owner: string, codes: Record<string, string>): void {
  const r = registry();
  const add: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(codes)) {
    const [code, description] = ERROR_CODE_PATTERN.test(v) ? [v, k] : [k, v];
    if (!ERROR_CODE_PATTERN.test(code)) {
      throw new OcError(ErrorCodes.ERROR_CODE_INVALID, `extension '${owner}' registers error code '${code}', which is not OC_ERR_ followed by A-Z, 0-9 or _`, {
        hint: "name codes like OC_ERR_MYEXT_SOMETHING",
      });
    }
    const held = r.get(code);
    if (held && held.owner !== owner) {
      throw new OcError(ErrorCodes.ERROR_CODE_TAKEN, `error code '${code}' is registered by both '${held.owner}' and '${owner}'`, {
        hint: `prefix the code with the extension id (OC_ERR_${owner.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_...)`,
      });
    }
    add.push([code, description]);
  }
  for (const [code, description] of add) if (!r.has(code)) r.set(code, { owner, description });
}

/** Every registered error code with its owner ("kernel" for the kernel's own), sorted by code. */
export function errorCodes(): Array<{ code: string; owner: string; description: string }> {
  return [...registry()].map(([code, e]) => ({ code, ...e })).sort((a, b) => a.code.localeCompare(b.code));
}

/** The shape every coded error has, whichever copy of `OcError` (or none) made it. */
export interface CodedError {
  code: string;
  message: string;
  hint?: string;
}

/**
 * Is this a coded oceancode error? Recognised by shape, never by class: an object with a string `code`
 * matching OC_ERR_[A-Z0-9_]+ and a string `message`.
 */
export function isOcError(e: unknown): e is CodedError {
  if (typeof e !== "object" || e === null) return false;
  const o = e as { code?: unknown; message?: unknown };
  return typeof o.code === "string" && ERROR_CODE_PATTERN.test(o.code) && typeof o.message === "string";
}

/** Does `e` carry this code? */
export function hasErrorCode(e: unknown, code: string): boolean {
  return isOcError(e) && e.code === code;
}

function ocErrorLine(e: CodedError): string {
  const hint = typeof e.hint === "string" && e.hint ? `; ${e.hint}` : "";
  return `${e.code}: ${e.message}${hint}`;
}

export function errorMessage(e: unknown): string {
  if (isOcError(e)) return ocErrorLine(e);
  if (e instanceof Error) return e.message;
  return String(e);
}
