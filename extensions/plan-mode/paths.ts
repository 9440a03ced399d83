/**
 * Where plan mode may write: a file under `<cwd>/.oceancode/plans/`, checked on the real (symlink-resolved)
 * path. A `..` that leaves the folder, a symlink (the file, a folder on the way, `.oceancode` itself) that
 * points outside, or a dangling symlink is refused.
 */
import fs from "node:fs";
import path from "node:path";
import { PLANS_DIR } from "./api.js";

/** The real path of `p`: the deepest part that exists, resolved through symlinks, plus the rest. Undefined for a dangling symlink. */
export function realTarget(p: string): string | undefined {
  let cur = path.resolve(p);
  const rest: string[] = [];
  for (let i = 0; i < 4096; i++) {
    let exists = true;
    try {
      fs.lstatSync(cur);
    } catch {
      exists = false;
    }
    if (exists) {
      try {
        return path.join(fs.realpathSync(cur), ...rest);
      } catch {
        return undefined;
      }
    }
    const parent = path.dirname(cur);
    if (parent === cur) return path.join(cur, ...rest);
    rest.unshift(path.basename(cur));
    cur = parent;
  }
  return undefined;
}

function inside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** Why `file` (absolute, or relative to `cwd`) may not be written in plan mode; undefined when it may. */
export function planWriteRefusal(cwd: string, file: string): string | undefined {
  const plans = path.resolve(cwd, PLANS_DIR);
  const target = path.resolve(cwd, file);
  if (!inside(plans, target)) return `${file} is outside ${PLANS_DIR}/`;
  const realCwd = realTarget(cwd);
  const real = realTarget(target);
  if (!realCwd || !real) return `${file} is a dangling symlink`;
  if (!inside(path.join(realCwd, PLANS_DIR), real)) return `${file} resolves to ${real}, outside ${PLANS_DIR}/ (a symlink)`;
  return undefined;
}
