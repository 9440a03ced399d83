/**
 * The read-only safe list, flag-aware: a command on it only reads, so it auto-approves with no rule.
 * Flags that write (find -delete/-exec..., git branch -D, git remote add, git tag v1, sort -o,
 * sed -i, ...) take a command off the list; so does output redirection (checked by the caller).
 */
import { gitSubcommand, hasFlag } from "./floor.js";

const READ_ONLY = new Set([
  "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ag", "fd", "tree", "pwd", "echo", "printf",
  "which", "whereis", "type", "file", "stat", "du", "df", "cut", "diff", "cmp", "comm", "whoami", "id", "uname",
  "basename", "dirname", "realpath", "readlink", "true", "false", "test", "[", "jq", "less", "more", "nl", "od",
  "hexdump", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "column", "seq", "printenv", "ps", "pgrep",
  "uptime", "free", "nproc", "groups", "locale", "tty", "sleep", "join", "paste", "tac", "rev", "strings", "tr",
  "fold", "expand", "unexpand", "lsof", "env", "date",
]);

const FIND_WRITES = ["-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"];
const GIT_READ = new Set([
  "status", "log", "diff", "show", "rev-parse", "ls-files", "ls-tree", "blame", "describe", "shortlog", "grep",
  "cat-file", "rev-list", "merge-base", "name-rev", "show-ref", "for-each-ref", "count-objects", "version",
  "branch", "remote", "tag", "config", "reflog", "stash", "worktree",
]);
const BRANCH_WRITES_SHORT = ["d", "D", "m", "M", "c", "C", "f", "u"];
const BRANCH_WRITES_LONG = ["--delete", "--move", "--copy", "--force", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track", "--no-track"];
const BRANCH_LIST = ["-l", "--list", "-a", "--all", "-r", "--remotes", "--show-current"];
const BRANCH_VALUED = ["--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--abbrev", "--color"];
const REMOTE_WRITES = new Set(["add", "remove", "rm", "rename", "set-url", "set-head", "set-branches", "prune", "update"]);
const TAG_WRITES_SHORT = ["d", "a", "s", "u", "f", "m", "F", "e"];
const TAG_WRITES_LONG = ["--delete", "--annotate", "--sign", "--local-user", "--force", "--message", "--file", "--edit"];
const TAG_VALUED = ["--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "-n"];

/** Words that are positional (not flags and not a flag's value). */
function positionals(args: string[], valued: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (valued.includes(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    out.push(a);
  }
  return out;
}

function gitSafe(args: string[]): { safe: boolean; why: string } {
  const { sub, rest, configOverride } = gitSubcommand(args.map((value) => ({ value, known: true })));
  const r = rest.map((a) => a.value);
  if (configOverride) return { safe: false, why: "git -c can run configured programs" };
  if (!GIT_READ.has(sub)) return { safe: false, why: `git ${sub || "(no subcommand)"} is not read-only` };
  if (r.some((a) => a.startsWith("--output") || a === "--ext-diff")) return { safe: false, why: `git ${sub} --output writes a file` };
  switch (sub) {
    case "branch": {
      if (hasFlag(r, BRANCH_WRITES_SHORT, BRANCH_WRITES_LONG)) return { safe: false, why: "git branch that deletes, renames, copies, forces or re-points" };
      const listing = r.some((a) => BRANCH_LIST.includes(a));
      if (!listing && positionals(r, BRANCH_VALUED).length) return { safe: false, why: "git branch <name> creates a branch" };
      return { safe: true, why: "git branch lists" };
    }
    case "remote": {
      const first = positionals(r, []).at(0);
      if (first && REMOTE_WRITES.has(first)) return { safe: false, why: `git remote ${first} changes remotes` };
      return { safe: true, why: "git remote lists" };
    }
    case "tag": {
      if (hasFlag(r, TAG_WRITES_SHORT, TAG_WRITES_LONG)) return { safe: false, why: "git tag that creates, signs, forces or deletes" };
      const listing = r.includes("-l") || r.includes("--list");
      if (!listing && positionals(r, TAG_VALUED).length) return { safe: false, why: "git tag <name> creates a tag" };
      return { safe: true, why: "git tag lists" };
    }
    case "config": {
      const reads = ["--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin"];
      return r.some((a) => reads.includes(a)) ? { safe: true, why: "git config reads" } : { safe: false, why: "git config may write" };
    }
    case "stash":
      return r[0] === "list" || r[0] === "show" ? { safe: true, why: "git stash lists" } : { safe: false, why: "git stash changes the tree" };
    case "worktree":
      return r[0] === "list" ? { safe: true, why: "git worktree list" } : { safe: false, why: "git worktree changes worktrees" };
    case "reflog":
      return !r[0] || r[0] === "show" ? { safe: true, why: "git reflog reads" } : { safe: false, why: `git reflog ${r[0]} writes` };
    default:
      return { safe: true, why: `git ${sub} reads` };
  }
}

/** Is this peeled argv read-only? `extra` holds shell.safe_list_extra prefixes ("make check"). */
export function safeListCheck(argv: string[], extra: string[]): { safe: boolean; why: string } {
  if (!argv.length) return { safe: true, why: "no command" };
  const [name, ...args] = argv as [string, ...string[]];
  for (const e of extra) {
    const words = e.trim().split(/\s+/);
    if (words.length && words.every((w, i) => argv[i] === w)) return { safe: true, why: `shell.safe_list_extra: ${e}` };
  }
  if (name === "git") return gitSafe(args);
  if (name === "find") {
    const bad = args.find((a) => FIND_WRITES.includes(a));
    return bad ? { safe: false, why: `find ${bad} is off the safe list` } : { safe: true, why: "find reads" };
  }
  if (name === "sort" && args.some((a) => a === "-o" || a.startsWith("--output") || /^-[a-zA-Z]*o/.test(a))) return { safe: false, why: "sort -o writes a file" };
  if (name === "sed") {
    if (args.some((a) => a === "--in-place" || a.startsWith("--in-place=") || /^-[a-zA-Z]*i/.test(a))) return { safe: false, why: "sed -i edits files" };
    return { safe: true, why: "sed prints" };
  }
  if (name === "date" && args.some((a) => a === "-s" || a.startsWith("--set"))) return { safe: false, why: "date -s sets the clock" };
  if (name === "uniq" && positionals(args, ["-f", "-s", "-w"]).length > 1) return { safe: false, why: "uniq with an output file writes" };
  if (name === "tree" && args.includes("-o")) return { safe: false, why: "tree -o writes a file" };
  if (name === "env" && args.length) return { safe: false, why: "env runs a command" };
  if (READ_ONLY.has(name)) return { safe: true, why: `${name} only reads` };
  return { safe: false, why: `${name} is not on the read-only safe list` };
}
