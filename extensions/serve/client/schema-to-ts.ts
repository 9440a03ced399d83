/**
 * JSON Schema (the subset route schemas use) to a TypeScript type expression, for the generated client.
 * Objects with properties become inline object types (required keys without `?`); additionalProperties
 * a Record; arrays, enums, const, anyOf/oneOf (a union), allOf (an intersection) and type arrays
 * (`["string","null"]`) map as their names say. Anything it cannot read becomes `unknown`, never `any`.
 * An object schema `named` knows (one the document repeats) becomes that type's name instead.
 */
export type Schema = { [key: string]: unknown };

/** The name of a shared (hoisted) type for this schema, if it has one. */
export type NamedTypes = (s: Schema) => string | undefined;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function literal(v: unknown): string {
  return JSON.stringify(v) ?? "unknown";
}

function key(name: string): string {
  return IDENT.test(name) ? name : JSON.stringify(name);
}

function pad(depth: number): string {
  return "  ".repeat(depth);
}

function one(type: string, s: Schema, depth: number, named?: NamedTypes): string {
  switch (type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${s.items && typeof s.items === "object" ? schemaToTs(s.items as Schema, depth, named) : "unknown"}>`;
    case "object":
      return objectType(s, depth, named);
    default:
      return "unknown";
  }
}

function objectType(s: Schema, depth: number, named?: NamedTypes): string {
  const props = (s.properties && typeof s.properties === "object" ? s.properties : {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const names = Object.keys(props);
  const extra = s.additionalProperties;
  if (!names.length) {
    if (extra && typeof extra === "object") return `Record<string, ${schemaToTs(extra as Schema, depth, named)}>`;
    return "Record<string, unknown>";
  }
  const lines = names.map((n) => {
    const p = props[n]!;
    const doc = typeof p.description === "string" ? `${pad(depth + 1)}/** ${p.description.replace(/\*\//g, "* /")} */\n` : "";
    return `${doc}${pad(depth + 1)}${key(n)}${required.has(n) ? "" : "?"}: ${schemaToTs(p, depth + 1, named)};`;
  });
  if (extra && typeof extra === "object") lines.push(`${pad(depth + 1)}[key: string]: unknown;`);
  return `{\n${lines.join("\n")}\n${pad(depth)}}`;
}

export function schemaToTs(s: Schema | undefined, depth = 0, named?: NamedTypes): string {
  if (!s || typeof s !== "object") return "unknown";
  const name = named?.(s);
  if (name) return name;
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(" | ") || "never";
  for (const k of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(s[k])) return (s[k] as Schema[]).map((x) => schemaToTs(x, depth, named)).join(" | ") || "unknown";
  }
  if (Array.isArray(s.allOf)) return (s.allOf as Schema[]).map((x) => schemaToTs(x, depth, named)).join(" & ") || "unknown";
  const t = s.type;
  if (Array.isArray(t)) return t.map((x) => one(String(x), s, depth, named)).join(" | ");
  if (typeof t === "string") return one(t, s, depth, named);
  if (s.properties) return objectType(s, depth, named);
  return "unknown";
}
