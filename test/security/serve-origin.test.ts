/**
 * Attacking `oceancode serve` the way a web page in the user's browser would: a loopback server without a
 * password is still reachable by DNS rebinding (the page's own name resolving to 127.0.0.1, sent as Host)
 * or by a cross-site request (the page's Origin). Whoever can prompt can run tools, so both are refused.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import type { Served } from "../../extensions/serve/test/serve-helpers.js";
import { serveTests } from "../../extensions/serve/test/serve-tests.js";

const { sb, startServe } = serveTests("oc-sec-serve-");
let srv: Served | undefined;

const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}` });

describe("serve against a hostile web page", () => {
  it("without a password, a browser page cannot drive it: a foreign Host (DNS rebinding) or Origin (cross-site) is 403", async () => {
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const port = new URL(srv.url).port;
    // http.request: fetch would not send a Host of our choosing
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, path: "/session", method: "GET", headers }, (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    const rebound = await get({ host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.code).toBe("forbidden_origin");
    expect((await get({ host: `127.0.0.1:${port}`, origin: "https://evil.example" })).status).toBe(403);
    expect((await get({ host: `localhost:${port}`, origin: "null" })).status).toBe(403);
    // this machine's names, with or without a loopback page's Origin, go on
    expect((await get({ host: `localhost:${port}` })).status).toBe(200);
    expect((await get({ host: `[::1]:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
    // with a password the page cannot authenticate anyway, and a proxy's Host is its own: not checked
    await srv.stop("SIGKILL");
    srv = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_SERVER_PASSWORD: "pw" } });
    const r = await srv.api("GET", "/health", undefined, { ...basic("oceancode", "pw"), origin: "https://proxy.example" });
    expect(r.status).toBe(200);
  });

});
