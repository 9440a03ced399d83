/**
 * Discovery: every *.js / *.mjs under <project>/.oceancode/workflows/ and ~/.oceancode/workflows/ is one
 * workflow, named by the `meta.name` it exports (read by evaluating the module in a sandbox with no host
 * API). Precedence built-in > project > user; a built-in is never shadowed, a duplicate keeps the first.
 * A .rhai file (the Rust engine's scripts) is listed as not supported with one warning.
 */
import fs from "node:fs";
import path from "node:path";
import type { WorkflowEntry } from "./api.js";
import { WorkflowTooLarge } from "./errors.js";

export const PORTING_DOC = "docs/workflows.md (\"Porting from Rhai\")";
/** the deepest folder level walked under a workflows root, and the most files read from one */
const MAX_DEPTH = 4;
const MAX_FILES = 200;
const MAX_BYTES = 512 * 1024;

export interface Discovered {
  entries: WorkflowEntry[];
  warnings: string[];
}

function scriptFiles(root: string): { scripts: string[]; rhai: string[] } {
  const scripts: string[] = [];
  const rhai: string[] = [];
  const walk = (dir: string, depth: number) => {
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH && !e.name.startsWith(".") && e.name !== "node_modules") walk(p, depth + 1);
      else if (e.isFile() && /\.(m?js)$/.test(e.name) && scripts.length < MAX_FILES) scripts.push(p);
      else if (e.isFile() && e.name.endsWith(".rhai")) rhai.push(p);
    }
  };
  walk(root, 0);
  return { scripts, rhai };
}

export async function discover(opts: { project: string; userOcDir: string; builtins: Array<{ name: string; description: string }>; projectTrusted: boolean }): Promise<Discovered> {
  const entries: WorkflowEntry[] = opts.builtins.map((b) => ({ name: b.name, description: b.description, source: "builtin", trusted: true }));
  const warnings: string[] = [];
  const rhaiAll: string[] = [];
  const roots: Array<{ dir: string; source: "project" | "user" }> = [
    { dir: path.join(opts.project, ".oceancode", "workflows"), source: "project" },
    { dir: path.join(opts.userOcDir, "workflows"), source: "user" },
  ];
  // the same folder twice (a project at ~): read once, as the project's
  const seen = new Set<string>();
  for (const root of roots) {
    const real = path.resolve(root.dir);
    if (seen.has(real)) continue;
    seen.add(real);
    const { scripts, rhai } = scriptFiles(root.dir);
    rhaiAll.push(...rhai);
    for (const file of scripts) {
      let meta: { name: string; description: string };
      try {
        const st = fs.statSync(file);
        if (st.size > MAX_BYTES) throw WorkflowTooLarge({ kb: MAX_BYTES / 1024 });
        const { readMeta } = await import("./sandbox.js"); // loaded only when there are scripts to read
        meta = await readMeta(fs.readFileSync(file, "utf8"), file);
      } catch (e) {
        warnings.push(`workflow ${file} skipped: ${(e as Error).message}`);
        continue;
      }
      const held = entries.find((x) => x.name === meta.name);
      if (held?.source === "builtin") {
        warnings.push(`workflow '${meta.name}' in ${file} is ignored: '${meta.name}' is a built-in, which cannot be shadowed (the built-in runs)`);
        continue;
      }
      if (held) {
        warnings.push(`workflow '${meta.name}' in ${file} is ignored: the name is already taken by ${held.file}`);
        continue;
      }
      entries.push({ name: meta.name, description: meta.description, source: root.source, file, trusted: root.source === "user" || opts.projectTrusted });
    }
  }
  if (rhaiAll.length > 0) {
    warnings.push(`${rhaiAll.length} .rhai workflow${rhaiAll.length === 1 ? "" : "s"} not supported (${rhaiAll.join(", ")}): workflows are JavaScript modules now; see ${PORTING_DOC}`);
  }
  return { entries, warnings };
}
