/**
 * Argument expansion, Claude Code's rules: `$ARGUMENTS` is the whole argument string, `$1..$9` the
 * positional arguments (shell-style words, quotes group), `$ARGUMENTS[N]` the 0-based positional form,
 * `${CLAUDE_SKILL_DIR}` the skill's folder. One pass, so an argument that itself holds `$1` stays as
 * typed. A body with no argument placeholder gets `ARGUMENTS: <args>` appended when args were given.
 */

/** Split like a shell would for words: whitespace separates, "..." and '...' group. */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3]!));
  return out;
}

const PLACEHOLDER = /\$\{CLAUDE_SKILL_DIR\}|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$([1-9])(?!\d)/g;

export function expandBody(body: string, args: string, dir: string): string {
  const words = splitArgs(args);
  let usedArgs = false;
  const out = body.replace(PLACEHOLDER, (all, idx: string | undefined, pos: string | undefined) => {
    if (all === "${CLAUDE_SKILL_DIR}") return dir;
    usedArgs = true;
    if (idx !== undefined) return words[Number(idx)] ?? "";
    if (pos !== undefined) return words[Number(pos) - 1] ?? "";
    return args;
  });
  return !usedArgs && args.trim() ? `${out.replace(/\s+$/, "")}\n\nARGUMENTS: ${args.trim()}` : out;
}
