/**
 * The object types the OpenAPI document repeats (the hooks routes all answer the same hooks state; many
 * answers carry the same session or row shape): each becomes one exported, named type of the generated
 * client, and every place that used it refers to the name, so the client states a shape once and a
 * caller can name it (`HooksListAnswer`). A name comes from the first place the shape appears, in the
 * generator's sorted order: `<Operation><Role>` for a whole body or answer, plus the property's name for a
 * shape inside one (an array's items named in the singular). Deterministic.
 */
import { schemaToTs, type NamedTypes, type Schema } from "./schema-to-ts.js";

/** A shape is worth a name when the document repeats it and it has at least this many properties. */
const MIN_PROPERTIES = 3;

/** One place a schema sits: the schema and the name a shape found there would take. */
export interface TypeSite {
  schema: Schema | undefined;
  hint: string;
}

export function capitalize(s: string): string {
  return s.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : "")).replace(/^./, (c) => c.toUpperCase());
}

/** The same JSON whatever the order of its keys: two copies of one shape get one key. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** An array's items are named for one of them: `sources` -> `Source`, `bodies` -> `Body`. */
function singular(hint: string): string {
  return hint.replace(/ies$/, "y").replace(/([^s])s$/, "$1");
}

function isNamable(s: Schema): boolean {
  return !!s.properties && typeof s.properties === "object" && Object.keys(s.properties).length >= MIN_PROPERTIES;
}

/** Every object schema under `s`, with the name it would take there. */
function visit(s: Schema | undefined, hint: string, each: (s: Schema, hint: string) => void): void {
  if (!s || typeof s !== "object") return;
  if (isNamable(s)) each(s, hint);
  const props = (s.properties && typeof s.properties === "object" ? s.properties : {}) as Record<string, Schema>;
  for (const [k, p] of Object.entries(props)) visit(p, `${hint}${capitalize(k)}`, each);
  if (s.items && typeof s.items === "object") visit(s.items as Schema, singular(hint), each);
  if (s.additionalProperties && typeof s.additionalProperties === "object") visit(s.additionalProperties as Schema, `${hint}Value`, each);
  for (const k of ["anyOf", "oneOf", "allOf"] as const) {
    if (Array.isArray(s[k])) (s[k] as Schema[]).forEach((x, i) => visit(x, `${hint}${i + 1}`, each));
  }
}

export interface SharedTypes {
  named: NamedTypes;
  /** `export type <Name> = …;` for each shared shape, in order of first appearance */
  declarations(): string[];
}

/** Name the shapes the sites repeat. */
export function sharedTypes(sites: readonly TypeSite[]): SharedTypes {
  const seen = new Map<string, { schema: Schema; hint: string; count: number }>();
  for (const site of sites) {
    visit(site.schema, site.hint, (s, hint) => {
      const key = canonical(s);
      const at = seen.get(key);
      if (at) at.count++;
      else seen.set(key, { schema: s, hint, count: 1 });
    });
  }
  const names = new Map<string, string>();
  const taken = new Set<string>(["OceancodeClient", "ClientBase", "CallOptions", "ClientOptions", "ServerSentEvent", "ClientHttpError"]);
  const order: Array<{ key: string; schema: Schema }> = [];
  for (const [key, { schema, hint, count }] of seen) {
    if (count < 2) continue;
    let name = hint;
    for (let n = 2; taken.has(name); n++) name = `${hint}${n}`;
    taken.add(name);
    names.set(key, name);
    order.push({ key, schema });
  }
  // a schema object is looked up by identity first: canonical() is only paid once per object
  const byObject = new WeakMap<Schema, string | null>();
  const named: NamedTypes = (s) => {
    let hit = byObject.get(s);
    if (hit === undefined) {
      hit = isNamable(s) ? (names.get(canonical(s)) ?? null) : null;
      byObject.set(s, hit);
    }
    return hit ?? undefined;
  };
  return {
    named,
    declarations: () =>
      order.map(({ key, schema }) => {
        const name = names.get(key)!;
        // the declaration itself spells the shape out (its own name would refer to itself)
        const body = schemaToTs(schema, 0, (s) => (s === schema ? undefined : named(s)));
        return `export type ${name} = ${body};`;
      }),
  };
}
