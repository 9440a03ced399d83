/** Routes another extension contributes through the registry (service "routes") are mounted, validated and documented. */
import { beforeEach, describe, expect, it } from "vitest";
import type { Served } from "./serve-helpers.js";
import { serveTests } from "./serve-tests.js";

const { sb, startServe } = serveTests("oc-serve-routes-");
let srv: Served | undefined;

// a user-tier extension (trusted) written only against the published contract oceancode/api/serve
const MANIFEST = {
  id: "greeter",
  version: "1.0.0",
  kernel: "^0.1.0",
  description: "contributes HTTP routes (test)",
  main: "index.js",
  optional: ["routes"],
  activation: ["onSession"],
};
const INDEX = `
import { HttpError } from "oceancode/kit/serve";
export default {
  activate(ctx) {
    const routes = ctx.services.tryGet("routes");
    routes?.add({
      method: "GET", url: "/greet/:id", operationId: "greet", summary: "say hello to a session's model",
      schema: { params: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
                response: { 200: { type: "object", properties: { hello: { type: "string" } } } } },
      handler: async (req) => ({ hello: (await req.session(req.params.id)).info.model }),
    }, ctx.id);
    routes?.add({
      method: "POST", url: "/greet", operationId: "greetMake", summary: "make a greeting",
      schema: { body: { type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 10 } } } },
      handler: (req) => {
        if (req.body.name === "teapot") throw new HttpError(418, "teapot", "I am a teapot");
        return { status: 201, body: { made: "hi " + req.body.name }, headers: { "x-greeter": "yes" } };
      },
    }, ctx.id);
  },
};
`;

beforeEach(() => {
  sb.write(".oceancode/extensions/greeter/manifest.json", JSON.stringify(MANIFEST), "home");
  sb.write(".oceancode/extensions/greeter/index.js", INDEX, "home");
});

describe("oceancode serve: contributed routes", () => {
  it("mounts a contributed route with its schema, RouteReply status and headers, HttpError bodies, session(id) and its operationId in /doc", async () => {
    srv = await startServe(["--directory", sb.project, "--home", sb.home], { env: sb.env });
    const made = await srv.api<{ made: string }>("POST", "/greet", { name: "ana" });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ made: "hi ana" });
    expect(made.headers.get("x-greeter")).toBe("yes");
    const tea = await srv.api<{ error: { code: string; message: string } }>("POST", "/greet", { name: "teapot" });
    expect(tea.status).toBe(418);
    expect(tea.body).toEqual({ error: { code: "teapot", message: "I am a teapot" } });
    const long = await srv.api<{ error: { code: string; path: string } }>("POST", "/greet", { name: "a very long name" });
    expect(long.status).toBe(400);
    expect(long.body.error.path).toBe("body/name");

    const id = (await srv.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    expect((await srv.api("GET", `/greet/${id}`)).body).toEqual({ hello: "scripted/echo" });
    const missing = await srv.api<{ error: { code: string } }>("GET", "/greet/ses_missing");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("session_not_found");

    const doc = await srv.api<{ paths: Record<string, Record<string, { operationId: string; tags: string[] }>> }>("GET", "/doc");
    expect(doc.body.paths["/greet/{id}"]!.get).toMatchObject({ operationId: "greet", tags: ["greeter"] });
    expect(doc.body.paths["/greet"]!.post!.operationId).toBe("greetMake");
  });
});
