/**
 * Destruction of project history and uncommitted work: a recursive delete of a .git directory,
 * git clean (unless a dry run), git reset --hard, discarding every change in the work tree
 * (git checkout -- . / git restore . / checkout -f / switch --discard-changes), git stash clear and
 * git reflog expire. The guard is pure (it never looks at the repository), so these always ask.
 */
import path from "node:path";
import type { Resolved } from "./words.js";
import type { Finding } from "./floor.js";
import { gitSubcommand, hasFlag, operands } from "./floor.js";
import { absPath, globToRegExp, type PathCtx } from "./paths.js";

export interface HistoryCtx extends PathCtx {
  project: string;
}

function ask(reason: string): Finding {
  return { kind: "guard", category: "history", reason };
}

/**
 * Does the word name a `.git` directory, its contents or something inside? Only the word's own
 * components count: a cwd that is itself under some .git (a worktree there) does not make every
 * relative path "inside .git".
 */
function inGitDir(word: string): boolean {
  return word.split("/").includes(".git");
}

/** A pathspec that covers the whole work tree: `.`, `:/`, `*`, the project root or the cwd. */
function wholeTree(spec: string, ctx: HistoryCtx): boolean {
  if ([".", ".//", ":/", ":/*", "*", ":(top)", ":(top)."].includes(spec)) return true;
  const abs = absPath(spec, ctx);
  return abs === ctx.project || abs === ctx.cwd;
}

/** Positional words of a git subcommand (after `--` everything is a pathspec). */
function pathspecs(rest: string[], valued: string[]): { before: string[]; after: string[] } {
  const before: string[] = [];
  const after: string[] = [];
  let end = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (end) after.push(a);
    else if (a === "--") end = true;
    else if (valued.includes(a)) i++;
    else if (!a.startsWith("-")) before.push(a);
  }
  return { before, after };
}

function git(args: Resolved[], ctx: HistoryCtx): Finding | undefined {
  const { sub, rest: restWords } = gitSubcommand(args);
  const rest = restWords.map((w) => w.value);
  switch (sub) {
    case "clean":
      if (hasFlag(rest, ["n"], ["--dry-run"])) return undefined;
      return ask("git clean deletes untracked (and with -x ignored) files git cannot bring back");
    case "reset":
      return rest.includes("--hard") ? ask("git reset --hard discards every uncommitted change") : undefined;
    case "checkout": {
      if (hasFlag(rest, ["f"], ["--force"])) return ask("git checkout --force discards uncommitted changes");
      const { before, after } = pathspecs(rest, ["-b", "-B", "--orphan", "--conflict"]);
      // `git checkout .` and `git checkout HEAD -- .`: the last positional before `--` may be a pathspec too
      const specs = after.length ? after : before;
      if (specs.some((s) => wholeTree(s, ctx))) return ask("git checkout of the whole tree discards every uncommitted change");
      return undefined;
    }
    case "restore": {
      const staged = rest.some((a) => a === "--staged" || /^-[a-zA-Z]*S/.test(a));
      const worktree = rest.some((a) => a === "--worktree" || /^-[a-zA-Z]*W/.test(a));
      if (staged && !worktree) return undefined;
      const { before, after } = pathspecs(rest, ["-s", "--source"]);
      if ([...before, ...after].some((s) => wholeTree(s, ctx))) return ask("git restore of the whole tree discards every uncommitted change");
      return undefined;
    }
    case "switch":
      return hasFlag(rest, ["f"], ["--force", "--discard-changes"]) ? ask("git switch --discard-changes discards uncommitted changes") : undefined;
    case "stash":
      return rest[0] === "clear" ? ask("git stash clear drops every stash") : undefined;
    case "reflog":
      return rest[0] === "expire" || rest[0] === "delete" ? ask(`git reflog ${rest[0]} removes the record that recovers lost commits`) : undefined;
    default:
      return undefined;
  }
}

/** find … -name .git -exec rm -rf {} +  /  find .git -delete */
function find(args: string[]): Finding | undefined {
  const flat = args.join(" ");
  const deletes = args.includes("-delete") || /(^|\s)(-exec|-execdir|-ok|-okdir)\s+(\S*\/)?rm\s+(-\S*[rR]|--recursive)/.test(flat);
  if (!deletes) return undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (["-name", "-iname", "-path", "-ipath", "-wholename"].includes(a) && args[i + 1]) {
      const v = args[i + 1]!;
      const re = globToRegExp(a.endsWith("name") ? v : path.basename(v), false);
      if (re.test(".git")) return ask("find deletes .git directories (the project's history)");
    }
  }
  for (const a of args) {
    if (a.startsWith("-") || a === "(" || a === "!") break;
    if (inGitDir(a)) return ask("find deletes inside a .git directory (the project's history)");
  }
  return undefined;
}

/** Does this peeled command destroy git history or uncommitted work? */
export function historyLoss(words: Resolved[], ctx: HistoryCtx): Finding | undefined {
  const name = words[0]?.value ?? "";
  const args = words.slice(1);
  if (name === "git") return git(args, ctx);
  if (name === "find") return find(args.map((a) => a.value));
  if (name === "rm" && hasFlag(args.map((a) => a.value), ["r", "R"], ["--recursive"])) {
    const t = operands(args).find((o) => o.known && inGitDir(o.value));
    if (t) return ask(`recursive rm of ${t.value} deletes the project's git history`);
  }
  if (name === "mv") {
    // mv .git elsewhere takes the history out of the project (the last operand is the destination)
    const t = operands(args).slice(0, -1).find((o) => o.known && path.basename(o.value.replace(/\/+$/, "")) === ".git");
    if (t) return ask(`mv ${t.value} moves the project's git history away`);
  }
  return undefined;
}
