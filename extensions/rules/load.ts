/**
 * One load of the memory: the candidates (sources.ts) in block order, each checked (bounds, shadowing, a
 * disabled plugin, Cursor's alwaysApply, its scope), read, and followed by its imports. Reads files only;
 * runs nothing. Called once per prompt that needs the block, and by `oceancode inspect`.
 */
import path from "node:path";
import type { Discovered } from "../../kernel/api.js";
import { MAX_FILES, type InstructionFile, type Memory } from "./api.js";
import { renderBlock } from "./block.js";
import { parseRule } from "./frontmatter.js";
import { checkTarget, expandImports, readBounded, realBound, type ImportContext } from "./imports.js";
import { matchScopes } from "./scope.js";
import { candidates, type Candidate, type RuleItem } from "./sources.js";

export interface LoadInput {
  project: string;
  home: string;
  walked: Array<Pick<Discovered<RuleItem>, "item" | "root">>;
  /** one per session: each scope glob is checked once */
  scopeCache?: Map<string, boolean>;
  /**
   * Why a layer's files are untrusted ("repo", "plugin:<name>"), or undefined when trusted. Absent: the
   * repo tier and every plugin are untrusted (fail closed). An untrusted file imports only project files.
   */
  untrustedLayer?: (layer: string) => string | undefined;
}

/** The default: local and user files are the user's; the checkout's and plugins' are not until trusted. */
export function untrustedByDefault(layer: string): string | undefined {
  if (layer === "repo") return "the repository is not trusted (oceancode trust repo on)";
  if (layer.startsWith("plugin:")) return `plugin '${layer.slice(7)}' is not trusted`;
  return undefined;
}

function inside(p: string, dir: string): string | undefined {
  const rel = path.relative(dir, p);
  return rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join("/");
}

export function loadMemory(input: LoadInput): Memory {
  const { root, list } = candidates(input.project, input.walked);
  const home = path.resolve(input.home);
  const display = (file: string): string => {
    const h = inside(file, home);
    return h !== undefined ? `~/${h}` : file;
  };
  // a file in the worktree is named by its relative path; anything else by its layer and ~/ or absolute path
  const idFor = (file: string, layer: string): string => inside(file, root) ?? `${layer}:${display(file)}`;
  const files: InstructionFile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const scopeCache = input.scopeCache ?? new Map<string, boolean>();
  const baseBounds = [realBound(root), realBound(home)];

  const row = (c: Candidate, state: string, extra: Partial<InstructionFile> = {}): InstructionFile => {
    const f: InstructionFile = { kind: c.kind, file: c.file, id: idFor(c.file, c.layer), layer: c.layer, state, ...extra };
    files.push(f);
    return f;
  };

  for (const c of list) {
    if (c.excluded) {
      row(c, c.excluded);
      continue;
    }
    const untrusted = (input.untrustedLayer ?? untrustedByDefault)(c.layer);
    // an untrusted file stays inside the project (and its plugin's folder), never the home directory
    const own = untrusted ? [realBound(root)] : baseBounds;
    const bounds = c.bound ? [...own, realBound(c.bound)] : own;
    const checked = checkTarget(c.file, { home, bounds });
    if ("refused" in checked) {
      row(c, `refused (${checked.refused})`);
      warnings.push(`${c.file}: not loaded: ${checked.refused}`);
      continue;
    }
    if (seen.has(checked.real)) continue; // the same file reached twice (home is the worktree, a symlink)
    if (seen.size >= MAX_FILES) {
      row(c, `left out (more than ${MAX_FILES} files)`);
      if (!warnings.some((w) => w.startsWith("rules: more than"))) warnings.push(`rules: more than ${MAX_FILES} memory files; the rest are left out`);
      continue;
    }
    seen.add(checked.real);
    let raw: string;
    try {
      raw = readBounded(checked.real);
    } catch (e) {
      warnings.push(`${c.file}: not loaded: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    let text = raw;
    if (c.kind === "rule") {
      const fm = parseRule(raw);
      if (fm.error) warnings.push(`${c.file}: ${fm.error}; loaded without a scope`);
      text = fm.body.replace(/^\s*\n/, "");
      if (c.cursor && fm.alwaysApply === false && !fm.scope) {
        row(c, "left out (alwaysApply: false)");
        continue;
      }
      if (fm.scope) {
        const hit = matchScopes(root, fm.scope, scopeCache);
        if (!hit.size) {
          row(c, `scoped out (no match for ${fm.scope.join(", ")})`, { scope: fm.scope });
          continue;
        }
        row(c, "active", { text, scope: fm.scope });
      } else row(c, "active", { text });
    } else row(c, "active", { text });
    const ctx: ImportContext = { home, bounds, idOf: (f) => idFor(f, c.layer), ...(untrusted ? { untrusted } : {}) };
    for (const imp of expandImports(c.file, text, ctx, seen, warnings)) files.push({ ...imp, layer: c.layer });
  }
  return { files, warnings, block: renderBlock(files) };
}
