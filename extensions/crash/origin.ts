/** Which extension a crash came from: the first stack frame whose file lies in a discovered extension's folder. */
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface ExtensionDir {
  id: string;
  dir: string;
}

/** The file of each frame of a V8 stack, in order ("at f (file:///x.js:1:2)", "at /x.js:1:2", "at async ..."). */
export function stackFiles(stack: string): string[] {
  const out: string[] = [];
  for (const line of stack.split("\n")) {
    const m = /^\s*at (?:.*?\()?((?:file:\/\/)?\/[^():]+(?::[^():]+)*?):\d+:\d+\)?\s*$/.exec(line);
    if (!m) continue;
    let f = m[1]!;
    if (f.startsWith("file://")) {
      try {
        f = fileURLToPath(f);
      } catch {
        continue;
      }
    }
    out.push(f);
  }
  return out;
}

/**
 * The extension of the first frame that maps to one: under its folder (user and project extensions run
 * from there), or under the build's `extensions/<id>/` for a bundled one (code shared by several bundled
 * extensions lives in dist/chunks/ and names none).
 */
export function extensionOf(stack: string, dirs: readonly ExtensionDir[]): string | undefined {
  const sorted = [...dirs].sort((a, b) => b.dir.length - a.dir.length);
  const ids = new Set(dirs.map((d) => d.id));
  for (const f of stackFiles(stack)) {
    const hit = sorted.find((d) => f === d.dir || f.startsWith(d.dir + path.sep));
    if (hit) return hit.id;
    const m = /[\\/]dist[\\/]extensions[\\/]([^\\/]+)[\\/]/.exec(f);
    if (m && ids.has(m[1]!)) return m[1];
  }
  return undefined;
}
