/**
 * `grep {pattern, path?, glob?, -i?, output_mode?, head_limit?}`: ripgrep when it is on PATH (run through
 * prepareSpawn so env stripping and the sandbox apply), else a JS search that honours .gitignore roughly.
 * Secret .env files are never searched.
 */
import fs from "node:fs";
import path from "node:path";
import type { ToolContext, ToolDefinition, ToolOutput } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { isSecretEnvFile, realPathLoose } from "./paths.js";
import { reqString, optString, optBool, optNumber, toolPath, ToolInputError } from "./common.js";
import { DEFAULT_SKIP, walkFiles } from "./filewalk.js";
import { globToRegExp } from "./glob-match.js";
import { startChild } from "./process.js";
import { looksBinary } from "./read.js";
import { pathMapping } from "./subject.js";

export type GrepMode = "files_with_matches" | "content" | "count";
const MODES: readonly GrepMode[] = ["files_with_matches", "content", "count"];
const MAX_LINE = 500;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface GrepQuery {
  pattern: string;
  root: string;
  glob?: string;
  ignoreCase: boolean;
  mode: GrepMode;
}

/** One result row before formatting: a file, and for content mode a line, or for count mode a count. */
export interface GrepHit {
  file: string;
  line?: number;
  text?: string;
  count?: number;
}

function cut(s: string): string {
  return s.length > MAX_LINE ? `${s.slice(0, MAX_LINE)}…` : s;
}

/** Is `rel` (a path relative to the search root) selected by the glob filter? Bare globs match the basename. */
function globFilter(glob: string | undefined): (rel: string) => boolean {
  if (!glob) return () => true;
  const re = globToRegExp(glob);
  return glob.includes("/") ? (rel) => re.test(rel) : (rel) => re.test(rel.slice(rel.lastIndexOf("/") + 1));
}

export function grepJs(q: GrepQuery): GrepHit[] {
  let re: RegExp;
  try {
    re = new RegExp(q.pattern, q.ignoreCase ? "i" : "");
  } catch (e) {
    throw ToolInputError({ message: `grep: invalid regular expression '${q.pattern}': ${(e as Error).message}` });
  }
  const hits: GrepHit[] = [];
  const select = globFilter(q.glob);
  const searchFile = (abs: string): void => {
    if (isSecretEnvFile(abs) || isSecretEnvFile(realPathLoose(abs))) return;
    let buf: Buffer;
    try {
      if (fs.statSync(abs).size > MAX_FILE_BYTES) return;
      buf = fs.readFileSync(abs);
    } catch {
      return;
    }
    if (looksBinary(buf)) return;
    const lines = buf.toString("utf8").split("\n");
    let count = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.replace(/\r$/, "");
      if (!re.test(line)) continue;
      count++;
      if (q.mode === "content") hits.push({ file: abs, line: i + 1, text: cut(line) });
      else if (q.mode === "files_with_matches") break;
    }
    if (count > 0 && q.mode === "files_with_matches") hits.push({ file: abs });
    if (count > 0 && q.mode === "count") hits.push({ file: abs, count });
  };
  const st = fs.statSync(q.root);
  if (st.isFile()) searchFile(q.root);
  else walkFiles(q.root, { gitignore: true, skipDirs: DEFAULT_SKIP, maxFiles: 200_000 }, (abs, rel) => void (select(rel) && searchFile(abs)));
  return hits;
}

/** Is ripgrep on PATH? Looked up once per process. */
let rgPath: string | null | undefined;
export function findRipgrep(envPath = process.env.PATH ?? ""): string | null {
  if (rgPath !== undefined) return rgPath;
  rgPath = null;
  for (const dir of envPath.split(path.delimiter)) {
    const p = path.join(dir, "rg");
    try {
      fs.accessSync(p, fs.constants.X_OK);
      rgPath = p;
      break;
    } catch {
      // not here
    }
  }
  return rgPath;
}

export async function grepRipgrep(q: GrepQuery, ctx: ToolContext): Promise<GrepHit[]> {
  const args = ["--no-config", "--color=never", "--hidden", "--glob", "!.git", "--glob", "!node_modules", "--null", "--no-messages", "--max-columns", String(MAX_LINE)];
  if (q.ignoreCase) args.push("-i");
  if (q.glob) args.push("--glob", q.glob);
  if (q.mode === "files_with_matches") args.push("-l");
  else if (q.mode === "count") args.push("-c", "--with-filename");
  else args.push("-n", "--with-filename", "--no-heading");
  args.push("--regexp", q.pattern, "--", q.root);
  const spec = await ctx.prepareSpawn({ command: "rg", args, cwd: ctx.cwd, purpose: "grep" });
  let out = "";
  const { child, done } = startChild(spec, (s) => (out += s));
  const abort = (): void => void child.kill("SIGKILL");
  ctx.signal.addEventListener("abort", abort, { once: true });
  const { code } = await done.finally(() => ctx.signal.removeEventListener("abort", abort));
  if (code === 2 && out.trim() !== "" && !out.includes("\0")) throw ToolInputError({ message: `grep: invalid regular expression '${q.pattern}': ${out.trim()}` });
  const hits: GrepHit[] = [];
  if (q.mode === "files_with_matches") {
    // with -l, --null ends each path with NUL instead of a newline
    for (const file of out.split(/[\0\n]/)) if (file !== "" && !isSecretEnvFile(file)) hits.push({ file });
    return hits;
  }
  for (const row of out.split("\n")) {
    if (row === "") continue;
    const nul = row.indexOf("\0");
    const file = nul === -1 ? row : row.slice(0, nul);
    if (isSecretEnvFile(file)) continue;
    const rest = nul === -1 ? "" : row.slice(nul + 1);
    if (q.mode === "count") hits.push({ file, count: Number(rest) });
    else {
      const colon = rest.indexOf(":");
      hits.push({ file, line: Number(rest.slice(0, colon)), text: rest.slice(colon + 1) });
    }
  }
  return hits;
}

function display(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel === "" ? path.basename(file) : rel.startsWith("..") || path.isAbsolute(rel) ? file : rel.split(path.sep).join("/");
}

export function formatHits(hits: GrepHit[], mode: GrepMode, cwd: string, headLimit: number | undefined): ToolOutput {
  if (hits.length === 0) return { content: "No matches found", metadata: { matches: 0 } };
  // ripgrep searches files in parallel: order by path (stable, so a file's lines stay in order)
  const sorted = [...hits].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
  const shown = headLimit !== undefined ? sorted.slice(0, headLimit) : sorted;
  const lines = shown.map((h) =>
    mode === "content" ? `${display(h.file, cwd)}:${h.line}:${h.text}` : mode === "count" ? `${display(h.file, cwd)}:${h.count}` : display(h.file, cwd),
  );
  const more = shown.length < sorted.length ? `\n(${sorted.length - shown.length} more not shown; raise head_limit or narrow the search)` : "";
  const head = mode === "files_with_matches" ? `Found ${hits.length} file${hits.length === 1 ? "" : "s"}\n` : "";
  return { content: `${head}${lines.join("\n")}${more}`, metadata: { matches: hits.length } };
}

export function grepTool(opts: ToolsOptions): ToolDefinition {
  return {
    name: "grep",
    kind: "search",
    claudeName: "Grep",
    description:
      "Search file contents with a regular expression (ripgrep syntax). output_mode: files_with_matches (default), content (file:line:text) or count. Filter files with glob (e.g. \"*.ts\"). Honours .gitignore; skips .git, node_modules, binary and .env files.",
    inputSchema: {
      type: "object",
      properties: {
        pattern: { type: "string", description: "the regular expression to search for" },
        path: { type: "string", description: "file or directory to search (default: the working directory)" },
        glob: { type: "string", description: "only files matching this glob, e.g. \"*.ts\" or \"src/**/*.tsx\"" },
        "-i": { type: "boolean", description: "case-insensitive" },
        output_mode: { type: "string", enum: [...MODES] },
        head_limit: { type: "integer", minimum: 1, description: "show at most this many results" },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    ...pathMapping(opts, "path"),
    async run(input, ctx) {
      const pattern = reqString("grep", input, "pattern", "the regular expression to search for");
      const mode = (optString("grep", input, "output_mode") ?? "files_with_matches") as GrepMode;
      if (!MODES.includes(mode)) throw ToolInputError({ message: `grep: output_mode must be one of ${MODES.join(", ")}` });
      const root = toolPath(opts, ctx, optString("grep", input, "path") ?? ".");
      if (!fs.existsSync(root)) throw ToolInputError({ message: `grep: ${root} does not exist` });
      if (isSecretEnvFile(root)) return { content: `grep: refused: ${root} is a secrets file and is never read`, isError: true };
      const q: GrepQuery = { pattern, root, glob: optString("grep", input, "glob"), ignoreCase: optBool("grep", input, "-i") ?? false, mode };
      const headLimit = optNumber("grep", input, "head_limit", 1);
      const hits = opts.useRipgrep && findRipgrep() ? await grepRipgrep(q, ctx) : grepJs(q);
      return formatHits(hits, mode, ctx.cwd, headLimit);
    },
  };
}
