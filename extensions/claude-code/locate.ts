/** Where the claude CLI is: OC_CLAUDE_BIN, else `claude` on PATH. */
import fs from "node:fs";
import path from "node:path";

/** The one line said where claude is not installed. */
export const INSTALL_HINT = "claude (Claude Code) is not installed: install it with `npm install -g @anthropic-ai/claude-code` (or set OC_CLAUDE_BIN to its path)";

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The claude binary's path, or undefined when it is not installed. */
export function locateClaude(env: NodeJS.ProcessEnv): string | undefined {
  const pinned = env.OC_CLAUDE_BIN;
  if (pinned) return executable(pinned) ? path.resolve(pinned) : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, "claude");
    if (executable(file)) return file;
  }
  return undefined;
}
