/** The web client's file routes on their own: only names the build wrote, every answer with the page's headers. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assetsIn, webRoutes } from "../static.js";
import { WEB_CSP, WEB_HEADERS } from "../api.js";
import type { RouteReply, RouteRequest } from "../../serve/api.js";

const req = (file?: string) => ({ params: file === undefined ? {} : { file }, query: {}, body: undefined, headers: {}, signal: new AbortController().signal, session: () => Promise.reject(new Error("no")) }) as RouteRequest;

describe("web client routes", () => {
  it("serve the built files with the CSP and nosniff, refuse other names, and say so when the client is not built", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-web-static-"));
    try {
      fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html>");
      fs.writeFileSync(path.join(dir, "app.js"), "export {}");
      fs.writeFileSync(path.join(dir, "notes.txt"), "not a web type");
      const [page, asset] = webRoutes(assetsIn(dir));
      expect([page!.hidden, asset!.hidden]).toEqual([true, true]);
      const html = (await page!.handler(req())) as RouteReply;
      expect(html.status).toBe(200);
      expect(html.headers).toMatchObject({ ...WEB_HEADERS, "content-type": "text/html; charset=utf-8" });
      expect(html.headers!["content-security-policy"]).toBe(WEB_CSP);
      expect(((await asset!.handler(req("app.js"))) as RouteReply).headers!["content-type"]).toBe("text/javascript; charset=utf-8");
      for (const bad of ["notes.txt", "../app.js", "app.js/", "missing.css"]) {
        await expect(Promise.resolve().then(() => asset!.handler(req(bad)))).rejects.toMatchObject({ name: "HttpError", status: 404, code: "not_found" });
      }
      const [unbuilt] = webRoutes(assetsIn(path.join(dir, "nope")));
      await expect(Promise.resolve().then(() => unbuilt!.handler(req()))).rejects.toMatchObject({ status: 503, code: "web_not_built" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
