/**
 * The typed client's source, generated from the server's OpenAPI 3.1 document (GET /doc): one method per
 * operation, named by its operationId, taking `{<path params>, <query params>, body?}` and resolving to
 * the 2xx answer's schema as a TypeScript type; event-stream operations become async iterators.
 * A shape the document repeats is stated once, as an exported type the methods name (shared-types.ts).
 * Deterministic (sorted by operationId), so a drift test can compare the committed file with a fresh run.
 */
import { schemaToTs, type NamedTypes, type Schema } from "./schema-to-ts.js";
import { capitalize, sharedTypes, type TypeSite } from "./shared-types.js";

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema;
  description?: string;
}

interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDoc {
  openapi?: string;
  info?: { title?: string; version?: string };
  paths?: Record<string, Record<string, Operation>>;
}

const METHODS = ["get", "post", "put", "patch", "delete"];

function comment(text: string | undefined, by: string): string {
  return text ? `${by}/** ${text.replace(/\*\//g, "* /").replace(/\n/g, " ")} */\n` : "";
}

/** The 2xx answer's schema: JSON, an event stream (JSON events; a stream documented as text is untyped), or text. */
function answerSchema(op: Operation): { schema?: Schema; kind: "json" | "stream" | "text" | "none" } {
  const ok = Object.entries(op.responses ?? {}).filter(([code]) => /^2/.test(code)).sort(([a], [b]) => a.localeCompare(b));
  for (const [, r] of ok) {
    const content = r.content ?? {};
    if (content["text/event-stream"]) {
      const schema = content["text/event-stream"].schema;
      return { schema: schema && schema.type !== "string" ? schema : undefined, kind: "stream" };
    }
    const json = content["application/json"];
    if (json) return { schema: json.schema, kind: "json" };
    if (Object.keys(content)[0]) return { kind: "text" };
  }
  return { kind: "none" };
}

function answerOf(op: Operation, named: NamedTypes): { type: string; stream: boolean } {
  const { schema, kind } = answerSchema(op);
  if (kind === "stream") return { type: schema ? schemaToTs(schema, 1, named) : "unknown", stream: true };
  if (kind === "json") return { type: schemaToTs(schema, 1, named), stream: false };
  return { type: kind === "text" ? "string" : "unknown", stream: false };
}

/** Where schemas sit in an operation, and the name a shape found there takes. */
function sitesOf(id: string, op: Operation): TypeSite[] {
  const base = capitalize(id);
  const sites: TypeSite[] = (op.parameters ?? []).map((x) => ({ schema: x.schema, hint: `${base}${capitalize(x.name)}` }));
  sites.push({ schema: op.requestBody?.content?.["application/json"]?.schema, hint: `${base}Body` });
  sites.push({ schema: answerSchema(op).schema, hint: `${base}Answer` });
  return sites;
}

export function generateClient(doc: OpenApiDoc): string {
  const ops: Array<{ id: string; method: string; path: string; op: Operation }> = [];
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const m of METHODS) {
      const op = item[m];
      if (op?.operationId) ops.push({ id: op.operationId, method: m.toUpperCase(), path: p, op });
    }
  }
  ops.sort((a, b) => a.id.localeCompare(b.id));
  const shared = sharedTypes(ops.flatMap(({ id, op }) => sitesOf(id, op)));
  const named = shared.named;
  const declarations = shared.declarations();
  const out: string[] = [
    "/**",
    ` * The typed client of the oceancode HTTP API${doc.info?.version ? ` ${doc.info.version}` : ""}, generated from GET /doc`,
    " * (extensions/serve/client/generate.ts). Do not edit: regenerate with `node dist/extensions/serve/client/write.js`.",
    " */",
    'import { ClientBase, type CallOptions, type ServerSentEvent } from "./base.js";',
    "",
    'export { ClientHttpError, type CallOptions, type ClientOptions, type ServerSentEvent } from "./base.js";',
    "",
    ...declarations.flatMap((d) => [d, ""]),
    "export class OceancodeClient extends ClientBase {",
  ];
  for (const { id, method, path, op } of ops) {
    const params = (op.parameters ?? []).filter((x) => x.in === "path" || x.in === "query");
    const body = op.requestBody?.content?.["application/json"]?.schema;
    const fields = params.map((x) => `${comment(x.description, "    ")}    ${/^[A-Za-z_$][\w$]*$/.test(x.name) ? x.name : JSON.stringify(x.name)}${x.in === "path" || x.required ? "" : "?"}: ${schemaToTs(x.schema, 2, named)};`);
    if (body) fields.push(`    body${op.requestBody?.required ? "" : "?"}: ${schemaToTs(body, 2, named)};`);
    const inputRequired = params.some((x) => x.in === "path" || x.required) || (body !== undefined && op.requestBody?.required === true);
    const inputType = fields.length ? `{\n${fields.join("\n")}\n  }` : undefined;
    const arg = inputType ? `input: ${inputType}${inputRequired ? "" : " = {}"}` : "";
    const pathKeys = params.filter((x) => x.in === "path").map((x) => x.name);
    const queryKeys = params.filter((x) => x.in === "query").map((x) => x.name);
    const pick = (keys: string[]) => `{ ${keys.map((k) => `${JSON.stringify(k)}: input[${JSON.stringify(k)}]`).join(", ")} }`;
    const { type, stream } = answerOf(op, named);
    out.push("");
    out.push(comment(`${method} ${path}${op.summary ? ` — ${op.summary}` : ""}`, "  ").trimEnd());
    if (stream) {
      const sep = arg ? ", " : "";
      out.push(`  ${id}(${arg}${sep}opts: CallOptions & { lastEventId?: string; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<${type === "unknown" ? "unknown" : type}>> {`);
      out.push(`    return this.stream(${JSON.stringify(path)}, ${pathKeys.length ? pick(pathKeys) : "{}"}, opts);`);
    } else {
      const sep = arg ? ", " : "";
      out.push(`  ${id}(${arg}${sep}opts: CallOptions = {}): Promise<${type}> {`);
      const parts = [pathKeys.length ? `path: ${pick(pathKeys)}` : "", queryKeys.length ? `query: ${pick(queryKeys)}` : "", body ? "body: input.body" : ""].filter(Boolean);
      out.push(`    return this.call(${JSON.stringify(method)}, ${JSON.stringify(path)}, ${parts.length ? `{ ${parts.join(", ")} }` : "{}"}, opts);`);
    }
    out.push("  }");
  }
  out.push("}", "");
  return out.join("\n");
}
