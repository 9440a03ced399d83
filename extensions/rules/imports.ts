/**
 * @path imports in instruction and rule files, as Claude Code writes them: `@./docs/x.md`, `@~/notes.md`,
 * `@docs/x.md`, `@/abs/file.md`. An import is a word that starts with `@` at the start of a line or after
 * whitespace and looks like a path (it has a `/` or a file extension); `@` inside a word (an email), inside
 * `code spans` and inside fenced code blocks is not an import.
 *
 * Each imported file is placed in the block right after the file that imports it (the importer's text
 * stays verbatim, `@path` included), up to MAX_IMPORT_DEPTH hops. Every target is resolved through
 * symlinks (realpath) and must lie inside one of the bounds (the worktree root and the home directory;
 * a plugin's own folder for its rules); a secret file (.env, an ssh key, cloud credentials: the shell
 * guard's list) is refused wherever it is. A loop, a missing file, a target out of bounds or past the
 * depth limit is a warning naming the importing file and the target; everything else keeps loading.
 *
 * A file from an untrusted tier (the checkout's CLAUDE.md, AGENTS.md and rules before `trust repo on`, an
 * untrusted plugin's rules) is repo text: it imports only files inside the project (the caller passes
 * the worktree root as the only bound), never `~/...` or an absolute path, and its imports inherit that.
 * Every refused import of an untrusted file leaves a marker in the block, so the model knows the text
 * is not there and does not go looking for it.
 */
import fs from "node:fs";
import path from "node:path";
import { isSecretEnvFile } from "../tools/kit.js";
import { secretPath } from "../shell-guard/kit.js";
import { MAX_FILE_CHARS, MAX_FILES, MAX_IMPORT_DEPTH, type InstructionFile } from "./api.js";

/** bytes read of one file: enough for MAX_FILE_CHARS characters of any encoding, never a whole huge file */
const MAX_READ_BYTES = MAX_FILE_CHARS * 4 + 4;

/** A file's text, at most MAX_READ_BYTES of it (the block cuts it to MAX_FILE_CHARS and says so). */
export function readBounded(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(MAX_READ_BYTES);
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = fs.readSync(fd, buf, n, buf.length - n, n);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** The import targets written in `text`, in order (code spans and fenced blocks skipped). */
export function findImports(text: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (f[1]!.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence) continue;
    const plain = line.replace(/(`+)[\s\S]*?\1/g, " ");
    for (const m of plain.matchAll(/(?:^|\s)@(\S+)/g)) {
      const spec = m[1]!.replace(/[),;:!?'"\]]+$/, "").replace(/\.$/, "");
      if (/^(~|\.{1,2})?\//.test(spec) || spec.includes("/") || /\.[A-Za-z0-9]+$/.test(spec)) out.push(spec);
    }
  }
  return out;
}

export interface ImportContext {
  home: string;
  /** the importer is untrusted: why (its imports stay inside the project; `~` and absolute paths are refused) */
  untrusted?: string;
  /** realpaths a target must lie inside (worktree root, home, a plugin's folder) */
  bounds: string[];
  /** the stable id of a file (relative to the worktree, ~/..., else absolute) */
  idOf(file: string): string;
}

export function resolveSpec(spec: string, fromFile: string, home: string): string {
  if (spec === "~" || spec.startsWith("~/")) return path.join(home, spec.slice(1));
  return path.resolve(path.dirname(fromFile), spec);
}

function within(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

export function realBound(dir: string): string {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Why a target may not be read, or undefined (with its realpath) when it may. */
export function checkTarget(target: string, ctx: Pick<ImportContext, "home" | "bounds">): { real: string } | { refused: string } {
  let real: string;
  try {
    real = fs.realpathSync.native(target);
  } catch {
    return { refused: "no such file" };
  }
  if (!ctx.bounds.some((b) => within(real, b))) {
    return { refused: real === path.resolve(target) ? "outside the project and home directories" : `a symlink to ${real}, outside the project and home directories` };
  }
  const secret = isSecretEnvFile(real) || isSecretEnvFile(target) ? "a .env file" : (secretPath(real, { cwd: path.dirname(real), home: realBound(ctx.home) }) ?? secretPath(target, { cwd: path.dirname(target), home: ctx.home }));
  if (secret) return { refused: `a secret file (${secret})` };
  try {
    if (!fs.statSync(real).isFile()) return { refused: "not a file" };
  } catch {
    return { refused: "no such file" };
  }
  return { real };
}

/**
 * The imports of `file` (whose text is `text`), depth first, each right after its importer. `seen` holds
 * the realpaths already in the block (a second import of one file is skipped silently); `chain` is the
 * import path to here (an import back into it is a loop).
 */
export function expandImports(
  file: string,
  text: string,
  ctx: ImportContext,
  seen: Set<string>,
  warnings: string[],
  chain: string[] = [realBound(file)],
): InstructionFile[] {
  const out: InstructionFile[] = [];
  const hop = chain.length;
  for (const spec of findImports(text)) {
    const target = resolveSpec(spec, file, ctx.home);
    const warn = (why: string) => warnings.push(`${file}: import @${spec} (${target}) not loaded: ${why}`);
    const marker = (why: string) => {
      if (ctx.untrusted) out.push({ kind: "import", file: target, id: ctx.idOf(target), layer: "import", state: `refused (${why})`, importedBy: ctx.idOf(file), marker: `[@${spec} not imported: ${why}]` });
    };
    if (ctx.untrusted && (spec === "~" || spec.startsWith("~/") || path.isAbsolute(spec))) {
      const why = `${ctx.untrusted}: it imports only files inside the project`;
      warn(why);
      marker(why);
      continue;
    }
    const checked = checkTarget(target, ctx);
    if ("refused" in checked) {
      const why = ctx.untrusted && checked.refused.includes("outside the project") ? `${checked.refused.replace(" and home directories", "")} (${ctx.untrusted})` : checked.refused;
      warn(why);
      marker(why);
      continue;
    }
    if (chain.includes(checked.real)) {
      warn(`an import loop (${[...chain, checked.real].map((p) => ctx.idOf(p)).join(" -> ")})`);
      continue;
    }
    if (hop > MAX_IMPORT_DEPTH) {
      warn(`more than ${MAX_IMPORT_DEPTH} hops of imports`);
      continue;
    }
    if (seen.has(checked.real)) continue;
    if (seen.size >= MAX_FILES) {
      warn(`more than ${MAX_FILES} memory files in one load`);
      continue;
    }
    let body: string;
    try {
      body = readBounded(checked.real);
    } catch (e) {
      warn(e instanceof Error ? e.message : String(e));
      continue;
    }
    seen.add(checked.real);
    out.push({ kind: "import", file: target, id: ctx.idOf(target), layer: "import", state: `imported by ${ctx.idOf(file)}`, importedBy: ctx.idOf(file), text: body });
    out.push(...expandImports(target, body, ctx, seen, warnings, [...chain, checked.real]));
  }
  return out;
}
