/**
 * The web client's routes: GET / (the page) and GET /web/:file (its assets), read from the folder the build
 * wrote next to this module. Hidden from the OpenAPI document (they are files, not API). A file name must
 * be one the build wrote: the folder is listed once, so no request names anything else.
 */
import fs from "node:fs";
import path from "node:path";
import { type RouteDefinition, type RouteReply } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import { WEB_HEADERS } from "./api.js";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export interface Assets {
  /** the file's bytes, undefined for a name the build did not write */
  get(name: string): Buffer | undefined;
}

/** The build's files in `dir`, read on first use and kept (a few hundred KB). */
export function assetsIn(dir: string): Assets {
  let files: Map<string, Buffer> | undefined;
  const load = () => {
    if (files) return files;
    files = new Map();
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir);
    } catch {
      // not built: every request says so (below)
    }
    for (const n of names) if (TYPES[path.extname(n)] && /^[A-Za-z0-9._-]+$/.test(n)) files.set(n, fs.readFileSync(path.join(dir, n)));
    return files;
  };
  return { get: (name) => load().get(name) };
}

function file(assets: Assets, name: string): RouteReply {
  const body = assets.get(name);
  if (!body) {
    if (name === "index.html") throw new HttpError(503, "web_not_built", "the web client's files are missing (run npm run build)");
    throw new HttpError(404, "not_found", `no web client file '${name.slice(0, 100)}'`);
  }
  return { status: 200, body, headers: { ...WEB_HEADERS, "content-type": TYPES[path.extname(name)]! } };
}

export function webRoutes(assets: Assets): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/",
      operationId: "webPage",
      summary: "the browser client's page",
      hidden: true,
      handler: () => file(assets, "index.html"),
    },
    {
      method: "GET",
      url: "/web/:file",
      operationId: "webAsset",
      summary: "one of the browser client's files (script, styles, icon)",
      hidden: true,
      schema: { params: { type: "object", required: ["file"], properties: { file: { type: "string", minLength: 1, maxLength: 100 } } } },
      handler: (req) => file(assets, req.params.file!),
    },
  ];
}
