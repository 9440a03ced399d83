/**
 * The project side of a confined spawn: protected paths bound read-only (an absent one gets an empty
 * placeholder first, so the command cannot create it: bubblewrap needs a mount point, and the placeholder
 * is removed again once no confined command of this process may still be running), and the project's
 * .env files masked.
 */
import fs from "node:fs";
import path from "node:path";
import { isSecretEnvFile } from "../tools/kit.js";
import { PROTECTED } from "./secrets.js";

/** Placeholders this process created, with how many confined runs still hold them. */
export class Placeholders {
  private readonly made = new Map<string, { dir: boolean; holds: number }>();
  /** pinned by a background job: kept until shutdown */
  private pinned = false;

  /**
   * The project's protected paths, creating placeholders for absent ones: `paths` to bind read-only, and
   * `held`, the placeholders this run holds (hand them back to release()).
   */
  hold(project: string): { paths: string[]; held: string[] } {
    const out: string[] = [];
    const held: string[] = [];
    for (const p of PROTECTED) {
      const abs = path.join(project, p.name);
      const known = this.made.get(abs);
      if (known) {
        known.holds += 1;
        held.push(abs);
        out.push(abs);
        continue;
      }
      let present = true;
      try {
        fs.lstatSync(abs);
      } catch {
        present = false;
      }
      if (!present) {
        try {
          if (p.dir) fs.mkdirSync(abs);
          else fs.writeFileSync(abs, "", { flag: "wx" });
          this.made.set(abs, { dir: p.dir, holds: 1 });
          held.push(abs);
        } catch {
          // a read-only project or a race: the path is either there now (bound below) or cannot be made
        }
      }
      out.push(abs);
    }
    return { paths: out, held };
  }

  /** A confined run ended; placeholders no run holds any more are removed when still empty. */
  release(held: readonly string[]): void {
    for (const abs of held) {
      const m = this.made.get(abs);
      if (!m) continue;
      m.holds = Math.max(0, m.holds - 1);
      if (m.holds === 0 && !this.pinned) this.remove(abs, m.dir);
    }
  }

  /** A background job may outlive its call: keep the placeholders until shutdown. */
  pin(): void {
    this.pinned = true;
  }

  clear(): void {
    for (const [abs, m] of this.made) this.remove(abs, m.dir);
  }

  private remove(abs: string, dir: boolean): void {
    try {
      if (dir) fs.rmdirSync(abs);
      else if (fs.statSync(abs).size === 0) fs.unlinkSync(abs);
    } catch {
      /* not empty or gone: leave it */
    }
    this.made.delete(abs);
  }
}

const SKIP = new Set(["node_modules", ".git", "dist", "build", "target", ".venv", "venv", "__pycache__"]);

/** The project's .env files (a bounded walk: depth 4, 4000 entries), to mask with /dev/null. */
export function envFiles(project: string, maxDepth = 4, maxEntries = 4000): string[] {
  const out: string[] = [];
  let seen = 0;
  const walk = (dir: string, depth: number): void => {
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      if (++seen > maxEntries) return;
      const abs = path.join(dir, e.name);
      if (e.isFile() && isSecretEnvFile(abs)) out.push(abs);
      else if (e.isDirectory() && depth < maxDepth && !SKIP.has(e.name)) walk(abs, depth + 1);
    }
  };
  walk(project, 1);
  return out;
}
