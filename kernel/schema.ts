/** JSON Schema validation (ajv, draft 2020-12) with errors that name the file, line and key path. */
import { createRequire } from "node:module";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { lineOfPath, type JsoncDocument } from "./jsonc.js";

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, { text: string; fn: ValidateFunction }>();

function instance(): Ajv2020 {
  // strict: false so section schemas may carry descriptive keywords such as "deprecated".
  // loaded on first use: most runs never validate a config file, and ajv costs ~50 ms to load
  if (!ajv) {
    const { Ajv2020: Ctor } = createRequire(import.meta.url)("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    ajv = new Ctor({ allErrors: true, strict: false, allowUnionTypes: true });
  }
  return ajv;
}

export function compileSchema(key: string, schema: object): ValidateFunction {
  // the key alone is not enough: two kernels in one process (tests sharing a worker, a reload) may give
  // the same section another schema, and a stale validator would pass what the new one refuses
  const text = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit && hit.text === text) return hit.fn;
  const fn = instance().compile(schema);
  compiled.set(key, { text, fn });
  return fn;
}

export interface SchemaProblem {
  /** dotted key path, e.g. "ledger.tideline.percent" ("" for the root) */
  keyPath: string;
  line?: number;
  expected: string;
}

function segments(instancePath: string): string[] {
  return instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "type":
      return `expected ${String(p.type)}`;
    case "enum":
      return `expected one of ${JSON.stringify(p.allowedValues)}`;
    case "const":
      return `expected ${JSON.stringify(p.allowedValue)}`;
    case "required":
      return `missing required key '${String(p.missingProperty)}'`;
    case "additionalProperties":
      return `unknown key '${String(p.additionalProperty)}'`;
    case "pattern":
      return `expected a string matching ${String(p.pattern)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `expected a number ${String(p.comparison)} ${String(p.limit)}`;
    default:
      return e.message ?? e.keyword;
  }
}

/**
 * Validate `value` and return problems. `prefix` is prepended to key paths (the config section name),
 * `doc`/`docPrefix` locate lines in the source file.
 */
export function validate(
  validateFn: ValidateFunction,
  value: unknown,
  opts: { prefix?: string[]; doc?: JsoncDocument; ignoreUnknownKeys?: boolean } = {},
): SchemaProblem[] {
  if (validateFn(value)) return [];
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of validateFn.errors ?? []) {
    if (opts.ignoreUnknownKeys && e.keyword === "additionalProperties") continue;
    // anyOf/oneOf produce a summary error plus branch errors; keep the summary only when alone
    const segs = [...(opts.prefix ?? []), ...segments(e.instancePath)];
    const keyPath = segs.join(".");
    const expected = describe(e);
    const k = `${keyPath}|${expected}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ keyPath, expected, line: opts.doc ? lineOfPath(opts.doc, segs) : undefined });
  }
  return out;
}

export function formatProblem(file: string, p: SchemaProblem): string {
  const where = p.line !== undefined ? `${file}:${p.line}` : file;
  return `${where}: ${p.keyPath || "(root)"}: ${p.expected}`;
}
