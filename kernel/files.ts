/**
 * Writing a user's file so that no reader ever sees half of it: a temp file in the same directory, then
 * a rename over the target. Published in `oceancode/kernel` for every extension that keeps a store
 * (trust.json, skill-state.json, the plugin store).
 */
import fs from "node:fs";
import path from "node:path";

/** Write `content` to `file` atomically (mode 0600 by default: these stores are the user's own). */
export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(tmp, content, { mode });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
