/** Implementation published by the kit `oceancode/kit/distribution` (moved out of extensions/distribution/api.ts, which keeps the types). */
import path from "node:path";

/** `<data dir>/versions`: one directory per installed version and the `current` link. */
export function versionsDir(dataDir: string): string {
  return path.join(dataDir, "versions");
}
