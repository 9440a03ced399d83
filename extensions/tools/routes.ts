/**
 * The project-file routes of `oceancode serve` (contributed through service "routes"). They live here
 * because this extension owns read/glob and their rules (paths.ts, filewalk.ts):
 *   GET /file/list?path=      one directory's entries (dirs first, names sorted)
 *   GET /file/find?query=     files whose project-relative path fuzzy-matches the query (fuzzysort)
 *   GET /file/content?path=   a text file, at most `max_bytes` of it (default 256 KiB, at most 1 MiB)
 * Confinement: the path is project-relative; an absolute path, a `..` segment, or anything whose real
 * path (symlinks resolved) is outside the project is refused, and so is anything under `.git`; .env files
 * are refused as `read` refuses them; a symlink that leads out of the project is neither listed nor found.
 */
import fs from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import type Fuzzysort from "fuzzysort";
import { type JsonSchema, type RouteDefinition } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import { DEFAULT_SKIP, walkFiles } from "./filewalk.js";
import { isSecretEnvFile } from "./paths.js";

export const FILE_READ_DEFAULT_BYTES = 256 * 1024;
export const FILE_READ_MAX_BYTES = 1024 * 1024;
/** a walk over more files than this stops (find answers what it saw, capped: true) */
const FIND_MAX_FILES = 100_000;
const LIST_MAX_ENTRIES = 5_000;

const errorBody: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } },
};
const pathQuery = (required: boolean): JsonSchema => ({
  type: "object",
  properties: { path: { type: "string", maxLength: 4096, description: "project-relative, `/`-separated; empty: the project root" } },
  ...(required ? { required: ["path"] } : {}),
});

/** The real path of the project root (symlinks resolved once per request: the project may be a link). */
function realRoot(project: string): string {
  try {
    return fs.realpathSync.native(project);
  } catch {
    throw new HttpError(500, "project_unreadable", "the project directory cannot be read");
  }
}

function within(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

/**
 * A client's project-relative path as an absolute real path inside the project, or an HttpError:
 * 400 for an absolute path or a `..` segment, 404 when nothing is there, 403 when its real path is
 * outside the project (a symlink out).
 */
export function confine(project: string, input: string): { abs: string; rel: string } {
  const raw = input.replace(/\\/g, "/");
  if (raw.includes("\0")) throw new HttpError(400, "invalid_path", "the path has a NUL byte");
  if (raw.startsWith("/") || path.isAbsolute(input) || /^[A-Za-z]:/.test(raw) || raw.startsWith("~")) throw new HttpError(400, "invalid_path", `'${input.slice(0, 200)}' is not project-relative: give a path inside the project, e.g. src/index.ts`);
  const segs = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (segs.includes("..")) throw new HttpError(400, "invalid_path", `'${input.slice(0, 200)}' has a '..' segment: paths stay inside the project`);
  // the repository's own files: .git/config may hold a remote URL with a token in it
  if (segs.some((x) => x.toLowerCase() === ".git")) throw new HttpError(403, "path_refused", `'${segs.join("/")}' is inside .git: the repository's own files are not served`);
  const root = realRoot(project);
  const lexical = path.join(root, ...segs);
  let real: string;
  try {
    real = fs.realpathSync.native(lexical);
  } catch {
    throw new HttpError(404, "file_not_found", `no file or directory '${segs.join("/")}' in the project`);
  }
  if (!within(real, root)) throw new HttpError(403, "path_outside_project", `'${segs.join("/")}' leads outside the project (a symbolic link): refused`);
  return { abs: real, rel: segs.join("/") };
}

interface Entry {
  name: string;
  path: string;
  type: "file" | "directory";
  size?: number;
}

function listDir(project: string, input: string): { path: string; entries: Entry[]; truncated: boolean } {
  const { abs, rel } = confine(project, input);
  if (!fs.statSync(abs).isDirectory()) throw new HttpError(400, "not_a_directory", `'${rel}' is a file: read it with GET /file/content`);
  const root = realRoot(project);
  const entries: Entry[] = [];
  const names = fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const d of names) {
    if (d.name === ".git") continue;
    const child = path.join(abs, d.name);
    let st: fs.Stats;
    try {
      // a link is listed as what it points at, and only when that is inside the project
      if (d.isSymbolicLink() && !within(fs.realpathSync.native(child), root)) continue;
      st = fs.statSync(child);
    } catch {
      continue;
    }
    const p = rel ? `${rel}/${d.name}` : d.name;
    if (st.isDirectory()) entries.push({ name: d.name, path: p, type: "directory" });
    else if (st.isFile()) entries.push({ name: d.name, path: p, type: "file", size: st.size });
  }
  entries.sort((a, b) => (a.type === b.type ? 0 : a.type === "directory" ? -1 : 1));
  return { path: rel, entries: entries.slice(0, LIST_MAX_ENTRIES), truncated: entries.length > LIST_MAX_ENTRIES };
}

/**
 * The project's file list for find, kept for a few seconds: a client searches as a person types, and the
 * walk (with .gitignore) is most of a search's time on a large tree. Prepared once for fuzzysort.
 */
const FIND_CACHE_MS = 3_000;
const walks = new Map<string, { at: number; files: Fuzzysort.Prepared[]; capped: boolean }>();

/** fuzzysort on the first search: a session whose server never searches (or that has no server) never loads it */
let fuzzy: Promise<typeof Fuzzysort> | undefined;

function projectFiles(fuzzysort: typeof Fuzzysort, root: string): { files: Fuzzysort.Prepared[]; capped: boolean } {
  const hit = walks.get(root);
  if (hit && Date.now() - hit.at < FIND_CACHE_MS) return hit;
  const files: Fuzzysort.Prepared[] = [];
  // .gitignore honoured (what a person means by "the project's files"); links out of the tree skipped by the walk
  const walked = walkFiles(root, { gitignore: true, skipDirs: DEFAULT_SKIP, maxFiles: FIND_MAX_FILES }, (_abs, rel) => void files.push(fuzzysort.prepare(rel)));
  const entry = { at: Date.now(), files, capped: walked.capped };
  walks.set(root, entry);
  return entry;
}

async function findFiles(project: string, query: string, limit: number): Promise<{ query: string; files: Array<{ path: string; score: number }>; capped: boolean }> {
  const fuzzysort = await (fuzzy ??= import("fuzzysort").then((m) => m.default));
  const { files, capped } = projectFiles(fuzzysort, realRoot(project));
  const hits = fuzzysort.go(query, files, { limit, threshold: 0.2 });
  return { query, files: hits.map((h) => ({ path: h.target, score: Math.round(h.score * 1000) / 1000 })), capped };
}

function readFile(project: string, input: string, maxBytes: number): { path: string; size: number; truncated: boolean; content: string } {
  const { abs, rel } = confine(project, input);
  if (isSecretEnvFile(abs) || isSecretEnvFile(rel)) throw new HttpError(403, "secret_file", `'${rel}' looks like a secrets file (.env, *.env, *.env.*): never read, as the read tool refuses it (use .env.example for the shape)`);
  if (fs.statSync(abs).isDirectory()) throw new HttpError(400, "not_a_file", `'${rel}' is a directory: list it with GET /file/list`);
  // no following a link swapped in since the real path was taken, no blocking on a FIFO: the checks are on the open file
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    throw new HttpError(404, "file_not_found", `'${rel}' cannot be opened`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new HttpError(400, "not_a_file", `'${rel}' is not a regular file`);
    const buf = Buffer.alloc(Math.min(st.size, maxBytes));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, n);
    if (bytes.includes(0)) throw new HttpError(415, "binary_file", `'${rel}' is a binary file: only text files are read`);
    // a cut inside a multi-byte character is left out (write() keeps an incomplete tail back), never shown as U+FFFD
    const content = st.size > maxBytes ? new StringDecoder("utf8").write(bytes) : bytes.toString("utf8");
    return { path: rel, size: st.size, truncated: st.size > maxBytes, content };
  } finally {
    fs.closeSync(fd);
  }
}

export function fileRoutes(project: string): RouteDefinition[] {
  const errors = { 400: errorBody, 403: errorBody, 404: errorBody };
  return [
    {
      method: "GET",
      url: "/file/list",
      operationId: "fileList",
      summary: "one project directory's entries (directories first); links leading outside the project are left out",
      schema: {
        querystring: pathQuery(false),
        response: {
          200: {
            type: "object",
            required: ["path", "entries", "truncated"],
            properties: {
              path: { type: "string" },
              entries: {
                type: "array",
                items: { type: "object", required: ["name", "path", "type"], properties: { name: { type: "string" }, path: { type: "string" }, type: { type: "string", enum: ["file", "directory"] }, size: { type: "integer" } } },
              },
              truncated: { type: "boolean" },
            },
          },
          ...errors,
        },
      },
      handler: (req) => listDir(project, String((req.query as { path?: string }).path ?? "")),
    },
    {
      method: "GET",
      url: "/file/find",
      operationId: "fileFind",
      summary: "project files whose relative path fuzzy-matches the query, best first (.gitignore honoured)",
      schema: {
        querystring: {
          type: "object",
          required: ["query"],
          properties: { query: { type: "string", minLength: 1, maxLength: 200 }, limit: { type: "integer", minimum: 1, maximum: 200, default: 50 } },
        },
        response: {
          200: {
            type: "object",
            required: ["query", "files", "capped"],
            properties: {
              query: { type: "string" },
              files: { type: "array", items: { type: "object", required: ["path", "score"], properties: { path: { type: "string" }, score: { type: "number", description: "0..1, higher is closer" } } } },
              capped: { type: "boolean", description: "the project has more files than one search walks" },
            },
          },
          400: errorBody,
        },
      },
      handler: (req) => {
        const q = req.query as { query: string; limit?: number };
        return findFiles(project, q.query, q.limit ?? 50);
      },
    },
    {
      method: "GET",
      url: "/file/content",
      operationId: "fileRead",
      summary: "a project text file, at most max_bytes of it (.env files, binary files and paths leading outside the project are refused)",
      schema: {
        querystring: {
          type: "object",
          required: ["path"],
          properties: { ...(pathQuery(true).properties as object), max_bytes: { type: "integer", minimum: 1, maximum: FILE_READ_MAX_BYTES, default: FILE_READ_DEFAULT_BYTES } },
        },
        response: {
          200: {
            type: "object",
            required: ["path", "size", "truncated", "content"],
            properties: { path: { type: "string" }, size: { type: "integer", description: "the whole file's size in bytes" }, truncated: { type: "boolean" }, content: { type: "string" } },
          },
          ...errors,
          415: errorBody,
        },
      },
      handler: (req) => {
        const q = req.query as { path: string; max_bytes?: number };
        return readFile(project, q.path, q.max_bytes ?? FILE_READ_DEFAULT_BYTES);
      },
    },
  ];
}
