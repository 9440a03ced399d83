/**
 * What config and requirements say about extensions before any code runs: extensions.disabled /
 * enabled / replace (the kernel's own config section), which requirements pins name a declared key,
 * and whether an extension's kernel range admits this kernel.
 */
import { createRequire } from "node:module";
import { isPlainObject, type ConfigLayer, type SectionSchema } from "./config.js";

type Satisfies = (v: string, r: string, o?: { includePrerelease?: boolean }) => boolean;
let semverSatisfies: Satisfies | undefined;
const PLAIN = /^(\d+)\.(\d+)\.(\d+)$/;
/** `^x.y.z` against a release version, without loading semver (~20 ms of module loading). */
function caretFast(version: string, range: string): boolean | undefined {
  const v = PLAIN.exec(version);
  const r = range.startsWith("^") ? PLAIN.exec(range.slice(1)) : null;
  if (!v || !r) return undefined;
  const [va, vb, vc] = [Number(v[1]), Number(v[2]), Number(v[3])];
  const [ra, rb, rc] = [Number(r[1]), Number(r[2]), Number(r[3])];
  const atLeast = va !== ra ? va > ra : vb !== rb ? vb > rb : vc >= rc;
  if (!atLeast) return false;
  // the caret allows changes right of the first non-zero part
  if (ra > 0) return va === ra;
  if (rb > 0) return va === 0 && vb === rb;
  return va === 0 && vb === 0 && vc === rc;
}
export function satisfies(version: string, range: string): boolean {
  const fast = caretFast(version, range.trim());
  if (fast !== undefined) return fast;
  // required (not imported) so ESM does not lex the CJS module graph on every start
  semverSatisfies ??= createRequire(import.meta.url)("semver/functions/satisfies") as Satisfies;
  return semverSatisfies(version, range, { includePrerelease: true });
}

/** Pins whose dotted key a section schema declares, and the ones no extension declares. */
export function checkedPins(pins: Record<string, unknown> | undefined, sections: readonly SectionSchema[]): { valid: Record<string, unknown>; refused: string[] } {
  const valid: Record<string, unknown> = {};
  const refused: string[] = [];
  for (const [key, v] of Object.entries(pins ?? {})) {
    const [head, ...rest] = key.split(".");
    let schema: unknown = sections.find((s) => s.section === head)?.schema;
    for (const seg of rest) {
      if (!isPlainObject(schema)) break;
      const props = isPlainObject(schema.properties) ? schema.properties : undefined;
      if (props?.[seg] !== undefined) schema = props[seg];
      else if (isPlainObject(schema.additionalProperties)) schema = schema.additionalProperties;
      else schema = props ? undefined : schema; // a schema without properties (any object) takes any key
      if (schema === undefined) break;
    }
    if (schema === undefined) refused.push(key);
    else valid[key] = v;
  }
  return { valid, refused };
}

export const KERNEL_CONFIG_SCHEMA = {
  type: "object",
  properties: {
    disabled: { type: "array", items: { type: "string" } },
    enabled: { type: "array", items: { type: "string" } },
    replace: { type: "object", additionalProperties: { type: "string" } },
  },
};

/**
 * extensions.disabled / enabled / replace, read layer by layer (lowest first): an `enabled` only
 * clears a disable made by a lower layer, so no layer re-enables what a higher one disabled.
 */
export function extensionControl(layers: ConfigLayer[]): { disabled: Map<string, string>; replace: Record<string, string> } {
  const disabled = new Map<string, string>();
  const replace: Record<string, string> = {};
  for (const l of layers) {
    const ext = l.value.extensions;
    if (!isPlainObject(ext)) continue;
    const where = `${l.name} config (${l.file ?? l.name})`;
    for (const id of Array.isArray(ext.enabled) ? ext.enabled : []) if (typeof id === "string") disabled.delete(id);
    for (const id of Array.isArray(ext.disabled) ? ext.disabled : []) if (typeof id === "string") disabled.set(id, where);
    if (isPlainObject(ext.replace)) for (const [k, v] of Object.entries(ext.replace)) if (typeof v === "string") replace[k] = v;
  }
  return { disabled, replace };
}
