/**
 * Coded errors. Every error the kernel raises for a user-fixable problem carries an
 * `OC_ERR_*` code, a one-line message, and optionally a hint on how to fix it.
 * Hosts print `message` (and `hint`) without a stack unless `-v` is set.
 *
 * Errors are recognised BY CODE, never by class identity (architecture rule 14): an extension built
 * against another install of the package has its own copy of `OcError`, and `instanceof` would miss it.
 * The code set is open: the kernel's codes are `ErrorCodes`; an extension defines each of its own once with
 * `defineError(owner, code, message, {hint, exitCode})` (in its `errors.ts`), which registers it and returns
 * the factory its code throws with. `errorDefinitions()` lists every code with owner, message, hint and exit code.
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
  /** set by defineError: the message template, hint and exit code */
  def?: { message: string; hint?: string; exitCode: number; auto?: true };
}

// one registry per process, shared by every copy of this module (a second install of the package
// loaded beside this one registers into the same table)
const REGISTRY_KEY = Symbol.for("oceancode.errorCodes");
/** the table this copy of the module added its kernel codes to (once: ~100 defineError calls at start-up) */
let seeded: Map<string, CodeEntry> | undefined;
function registry(): Map<string, CodeEntry> {
  const g = globalThis as unknown as Record<symbol, Map<string, CodeEntry> | undefined>;
  let r = g[REGISTRY_KEY];
  if (!r) {
    r = new Map();
    g[REGISTRY_KEY] = r;
  }
  if (seeded === r) return r;
  for (const [code, description] of Object.values(KERNEL_CODES)) {
    if (!r.has(code)) r.set(code, { owner: KERNEL_OWNER, description, def: { message: description, exitCode: code === "OC_ERR_USAGE" ? 2 : 1, auto: true } });
  }
  seeded = r;
  return r;
}

export class OcError<D = unknown> extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  /** the process exit code a host uses when this error ends a command (absent: 1, or 2 for OC_ERR_USAGE) */
  readonly exitCode?: number;
  /** what the thrower attached for a catcher to act on (a status, a session id, an outcome) */
  readonly data?: D;
  constructor(code: ErrorCode, message: string, options?: { hint?: string; cause?: unknown; exitCode?: number; data?: D }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "OcError";
    this.code = code;
    this.hint = options?.hint;
    if (options?.exitCode !== undefined) this.exitCode = options.exitCode;
    if (options?.data !== undefined) this.data = options.data;
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

/** `{name}` placeholders of a message template. */
type TemplateKeys<S extends string> = S extends `${string}{${infer K}}${infer R}` ? K | TemplateKeys<R> : never;
/** What a template's placeholders are filled with. */
export type ErrorParams<S extends string> = { readonly [K in TemplateKeys<S>]: string | number | bigint | boolean };
/** Per throw: the cause, a hint in place of the definition's, data for the catcher. */
export interface ErrorThrowOptions<D> {
  cause?: unknown;
  hint?: string;
  data?: D;
}

/** One defined error as `inspect --errors` lists it. */
export interface ErrorDefinition {
  readonly owner: string;
  readonly code: string;
  /** the template: `{name}` is filled from the params */
  readonly message: string;
  readonly hint?: string;
  readonly exitCode: number;
}

/** What defineError returns: call it with the template's params to get the error to throw. */
export interface ErrorFactory<P extends string = string, D = unknown> extends ErrorDefinition {
  (...args: [P] extends [never] ? [params?: Record<string, never>, options?: ErrorThrowOptions<D>] : [params: { readonly [K in P]: string | number | bigint | boolean }, options?: ErrorThrowOptions<D>]): OcError<D>;
  /** Is `e` this error (by code, from any copy of the module)? */
  is(e: unknown): e is CodedError & { data?: D };
  /** The same factory, typed to carry `data` of type T (read back with `is`). */
  withData<T>(): ErrorFactory<P, T>;
  /** This error with a message already made elsewhere (a refusal passed on, a redacted message). */
  wrap(message: string, options?: ErrorThrowOptions<D>): OcError<D>;
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
function fill(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(PLACEHOLDER, (whole, k: string) => (params && k in params ? String(params[k]) : whole));
}

/**
 * Define one coded error, once, by its owner (an extension id, or "kernel"): its code, message template
 * (`{name}` placeholders, typed as the factory's params), hint (also a template) and the exit code a host
 * uses when it ends a command (default 1). The definition is registered at once; a code another owner holds,
 * or the same owner defining it again with another message, throws OC_ERR_ERROR_CODE_TAKEN.
 */
export function defineError<const S extends string, const H extends string = never>(
  owner: string,
  code: string,
  message: S,
  opts: { hint?: H; exitCode?: number } = {},
): ErrorFactory<TemplateKeys<S> | TemplateKeys<H>> {
  const def = { message, hint: opts.hint, exitCode: opts.exitCode ?? 1 };
  const r = registry();
  registerErrorCodes(owner, { [code]: fill(message, undefined) });
  const held = r.get(code)!;
  if (held.def && !held.def.auto && (held.def.message !== def.message || held.def.exitCode !== def.exitCode || held.def.hint !== def.hint)) {
    throw new OcError(ErrorCodes.ERROR_CODE_TAKEN, `error code '${code}' is defined twice by '${owner}' with different messages`, { hint: "define each error once, in the owner's errors.ts, and import it from there" });
  }
  held.def = def;
  const make = (params?: Record<string, unknown>, o: ErrorThrowOptions<unknown> = {}): OcError => {
    const hint = o.hint ?? (def.hint === undefined ? undefined : fill(def.hint, params));
    return new OcError(code, fill(message, params), { hint, cause: o.cause, exitCode: def.exitCode, data: o.data });
  };
  const factory = Object.assign(make, {
    owner,
    code,
    message,
    hint: def.hint,
    exitCode: def.exitCode,
    is: (e: unknown) => hasErrorCode(e, code),
    withData: () => factory,
    wrap: (text: string, o: ErrorThrowOptions<unknown> = {}) => new OcError(code, text, { hint: o.hint ?? def.hint, cause: o.cause, exitCode: def.exitCode, data: o.data }),
  });
  return factory as unknown as ErrorFactory<TemplateKeys<S> | TemplateKeys<H>>;
}

/** Every defined error (the kernel's and each extension's that has been loaded), sorted by code. */
export function errorDefinitions(): ErrorDefinition[] {
  return [...registry()]
    .map(([code, e]) => ({ owner: e.owner, code, message: e.def?.message ?? e.description, ...(e.def?.hint ? { hint: e.def.hint } : {}), exitCode: e.def?.exitCode ?? 1 }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

/** The exit code a host uses for an error that ended a command: the coded error's own, else 1 (2 for OC_ERR_USAGE). */
export function exitCodeOf(e: unknown): number {
  const x = (e as { exitCode?: unknown } | null)?.exitCode;
  if (isOcError(e) && typeof x === "number" && Number.isInteger(x)) return x;
  return isOcError(e) && e.code === ErrorCodes.USAGE ? 2 : 1;
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

/** A command called wrongly (exit 2): every host and extension throws this one, with its own message. */
export const Usage = defineError(KERNEL_OWNER, ErrorCodes.USAGE, "{message}", { exitCode: 2 });
