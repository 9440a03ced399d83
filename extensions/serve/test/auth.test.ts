/** The server's guard: basic auth when OC_SERVER_PASSWORD is set, open on loopback without it, refused off loopback without it. */
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../../../test/kit/cli.js";
import { SseReader, type Served } from "./serve-helpers.js";
import { serveTests } from "./serve-tests.js";

const { sb, startServe } = serveTests("oc-serve-auth-");
let srv: Served | undefined;

const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}` });

describe("oceancode serve: auth", () => {
  it("with OC_SERVER_PASSWORD every route needs basic auth: 401 with WWW-Authenticate without it or with a wrong one, 200 with it", async () => {
    srv = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_SERVER_PASSWORD: "s3cret" } });
    for (const path of ["/health", "/doc", "/session", "/event"]) {
      const r = await fetch(`${srv.url}${path}`);
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe('Basic realm="oceancode"');
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    expect((await srv.api("GET", "/health", undefined, basic("oceancode", "wrong"))).status).toBe(401);
    expect((await srv.api("GET", "/health", undefined, basic("someone", "s3cret"))).status).toBe(401);
    expect((await srv.api("GET", "/health", undefined, { authorization: "Bearer s3cret" })).status).toBe(401);
    expect((await srv.api("GET", "/health", undefined, basic("oceancode", "s3cret"))).status).toBe(200);
    expect((await srv.api("POST", "/session", { model: "scripted/echo" }, basic("oceancode", "s3cret"))).status).toBe(201);
    const sse = await SseReader.open(`${srv.url}/event`, basic("oceancode", "s3cret"));
    expect(sse.status).toBe(200);
    sse.close();
  });

  it("the password does not reach the tools the model runs (it leaves the environment once read)", async () => {
    sb.write("env.json", JSON.stringify({ steps: [{ text: "env", tool_calls: [{ name: "bash", input: { command: "env" } }] }, { text: "done" }] }));
    srv = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_SERVER_PASSWORD: "pw-do-not-leak" } });
    const auth = basic("oceancode", "pw-do-not-leak");
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: "scripted/env.json" }, auth)).body.id;
    const sse = await SseReader.open(`${srv.url}/session/${id}/event`, auth);
    await srv.api("POST", `/session/${id}/prompt`, { text: "go" }, auth);
    const toolEnd = await sse.waitFor((e) => e.event === "tool_call_end");
    const out = (toolEnd.data.result as { content: string }).content;
    expect(out).toContain("HOME="); // the env command ran and printed the environment
    expect(out).not.toContain("pw-do-not-leak");
    expect(out).not.toContain("OC_SERVER_PASSWORD");
    sse.close();
  });

  it("OC_SERVER_USERNAME names the user", async () => {
    srv = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_SERVER_PASSWORD: "pw", OC_SERVER_USERNAME: "ana" } });
    expect((await srv.api("GET", "/health", undefined, basic("oceancode", "pw"))).status).toBe(401);
    expect((await srv.api("GET", "/health", undefined, basic("ana", "pw"))).status).toBe(200);
  });

  it("on loopback without a password every route is open", async () => {
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    expect((await srv.api("GET", "/health")).status).toBe(200);
    expect((await srv.api("GET", "/session")).status).toBe(200);
  });

  it("a non-loopback bind without OC_SERVER_PASSWORD refuses to start: a clear error, exit 1", async () => {
    const r = await runCliAsync(["--directory", sb.project, "serve", "--host", "0.0.0.0", "--port", "0"], { env: sb.env, timeoutMs: 20_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("refusing to listen on 0.0.0.0 without a password");
    expect(r.stderr).toContain("OC_SERVER_PASSWORD");
    expect(r.stdout).toBe("");
  });

  it("a non-loopback bind with OC_SERVER_PASSWORD starts, behind auth", async () => {
    srv = await startServe(["--directory", sb.project, "--host", "0.0.0.0"], { env: { ...sb.env, OC_SERVER_PASSWORD: "pw" } });
    expect((await fetch(`http://127.0.0.1:${srv.port}/health`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${srv.port}/health`, { headers: basic("oceancode", "pw") })).status).toBe(200);
  });

  it("a bad --port is a usage error (exit 2)", async () => {
    const r = await runCliAsync(["serve", "--port", "http"], { env: sb.env, timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--port must be a port number");
  });
});
