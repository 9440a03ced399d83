/**
 * The client generator on a small OpenAPI 3.1 document shaped as @fastify/swagger writes it: the source
 * it emits type-checks with the real TypeScript compiler, methods carry path/query/body and answer types,
 * and an event-stream operation becomes an async iterator. SSE block parsing, too.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generateClient, type OpenApiDoc } from "../generate.js";
import { parseBlock } from "../base.js";
import { schemaToTs } from "../schema-to-ts.js";

const DOC: OpenApiDoc = {
  openapi: "3.1.0",
  info: { title: "oceancode", version: "0.1.0" },
  paths: {
    "/session/{id}": {
      get: {
        operationId: "sessionGet",
        summary: "one session",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" }, model: { type: "string" }, turns: { type: "integer" } }, required: ["id", "model"] } } } } },
      },
    },
    "/session/{id}/message": {
      get: {
        operationId: "sessionMessages",
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "limit", in: "query", schema: { type: "integer" } },
        ],
        responses: { "200": { content: { "application/json": { schema: { type: "object", properties: { messages: { type: "array", items: { type: "object", additionalProperties: true } } } } } } } },
      },
    },
    "/session": {
      post: {
        operationId: "sessionCreate",
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { cwd: { type: "string" }, mode: { type: "string", enum: ["default", "acceptEdits"] } } } } } },
        responses: { "201": { content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } } } } },
      },
    },
    "/event": { get: { operationId: "events", responses: { "200": { content: { "text/event-stream": { schema: { type: "object" } } } } } } },
    "/health": { get: { operationId: "health", responses: { "200": { content: { "application/json": { schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } } } } } } },
  },
};

describe("the client generator", () => {
  const source = generateClient(DOC);

  it("one method per operation, sorted, with path, query and body", () => {
    expect([...source.matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1])).toEqual(["events", "health", "sessionCreate", "sessionGet", "sessionMessages"]);
    expect(source).toContain('return this.call("GET", "/session/{id}/message", { path: { "id": input["id"] }, query: { "limit": input["limit"] } }, opts);');
    expect(source).toMatch(/sessionCreate\(input: \{\n {4}body: \{/);
    expect(source).toMatch(/events\(opts: CallOptions & \{ lastEventId\?: string; reconnect\?: boolean \} = \{\}\): AsyncGenerator<ServerSentEvent</);
    expect(generateClient(DOC)).toBe(source);
  });

  it("what it writes type-checks, and misuse does not", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-client-gen-"));
    try {
      fs.copyFileSync(path.join(__dirname, "../base.ts"), path.join(dir, "base.ts"));
      fs.writeFileSync(path.join(dir, "client.ts"), source);
      // one program for the three uses: a compiler start costs seconds
      const uses = {
        ok: `const s = await c.sessionGet({ id: "x" }); const m: string = s.model; const n: number | undefined = s.turns; void m; void n;\nconst made = await c.sessionCreate({ body: { cwd: "/p", mode: "acceptEdits" } }); void made.id;\nfor await (const e of c.events()) void e.data;\nawait c.health();`,
        noId: `await c.sessionGet({});`,
        badEnum: `await c.sessionCreate({ body: { mode: "nope" } });`,
      };
      for (const [name, body] of Object.entries(uses)) fs.writeFileSync(path.join(dir, `${name}.ts`), `import { OceancodeClient } from "./client.js";\nconst c = new OceancodeClient({ baseUrl: "http://127.0.0.1:1" });\nexport async function f() {\n${body}\n}\n`);
      const program = ts.createProgram(Object.keys(uses).map((n) => path.join(dir, `${n}.ts`)), { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: ["node"], typeRoots: [path.resolve(__dirname, "../../../../node_modules/@types")] });
      const errors = (name: string) => ts.getPreEmitDiagnostics(program, program.getSourceFile(path.join(dir, `${name}.ts`))).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("\n");
      expect(errors("ok")).toBe("");
      expect(ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName.endsWith("client.ts") || d.file?.fileName.endsWith("base.ts"))).toEqual([]);
      expect(errors("noId")).toMatch(/id/);
      expect(errors("badEnum")).toMatch(/nope/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a shape the document repeats is one exported type the methods name", () => {
    const state = { type: "object", properties: { path: { type: "string" }, tier: { type: "string" }, handlers: { type: "array", items: { type: "object", properties: { event: { type: "string" }, matcher: { type: "string" }, command: { type: "string" } } } } }, required: ["path"] };
    const answer = { "200": { content: { "application/json": { schema: { type: "object", properties: { sources: { type: "array", items: state } } } } } } };
    const doc: OpenApiDoc = {
      paths: {
        "/hooks": { get: { operationId: "hooksList", responses: answer } },
        "/hooks/reload": { post: { operationId: "hooksReload", responses: JSON.parse(JSON.stringify(answer)) as typeof answer } },
      },
    };
    const out = generateClient(doc);
    // the answer and its nested shapes are stated once, named for where they first appear (hooksList, sorted first)
    expect(out.match(/^export type \w+/gm)).toEqual(["export type HooksListAnswerSourceHandler", "export type HooksListAnswerSource"].sort((a, b) => out.indexOf(a) - out.indexOf(b)));
    expect(out.match(/matcher\?: string;/g)).toHaveLength(1);
    expect(out).toContain("sources?: Array<HooksListAnswerSource>;");
    expect(out).toContain("handlers?: Array<HooksListAnswerSourceHandler>;");
    expect(out.match(/Array<HooksListAnswerSource>/g)).toHaveLength(2);
    // a shape that appears once stays inline
    expect(generateClient(DOC)).not.toMatch(/^export type/m);
  });

  it("schemas: unions, nullable types, records and literals", () => {
    expect(schemaToTs({ type: ["string", "null"] })).toBe("string | null");
    expect(schemaToTs({ anyOf: [{ const: "a" }, { type: "integer" }] })).toBe('"a" | number');
    expect(schemaToTs({ type: "object", additionalProperties: { type: "number" } })).toBe("Record<string, number>");
    expect(schemaToTs({})).toBe("unknown");
  });

  it("SSE blocks: id, event and JSON data; comments skipped", () => {
    expect(parseBlock('id: 7\nevent: text_delta\ndata: {"text":"hi"}')).toEqual({ id: "7", event: "text_delta", data: { text: "hi" } });
    expect(parseBlock(": keep-alive")).toBeUndefined();
    expect(parseBlock("data: plain")).toEqual({ event: "message", data: "plain" });
  });
});
