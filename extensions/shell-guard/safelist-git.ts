/**
 * git on the read-only safe list: a read-only subcommand with only flags known to read. Global options
 * that run programs (-c, --config-env, --exec-path) and the per-command ones that run or write
 * (--output, --ext-diff, --textconv, -O/--open-files-in-pager, --show-signature runs gpg) take it off.
 */
import { parseForm, type Form } from "./forms.js";

const PRETTY = "pretty format abbrev date encoding expand-tabs notes decorate decorate-refs decorate-refs-exclude";
const DIFF_B = [
  "patch no-patch raw patch-with-raw patch-with-stat numstat shortstat summary name-only name-status stat compact-summary full-index binary",
  "minimal patience histogram indent-heuristic no-indent-heuristic no-renames rename-empty no-rename-empty check ignore-cr-at-eol ignore-space-at-eol",
  "ignore-space-change ignore-all-space ignore-blank-lines text function-context exit-quiet exit-code quiet no-ext-diff no-textconv no-prefix",
  "default-prefix ita-invisible-in-index ita-visible-in-index color no-color color-moved no-color-moved color-words word-diff word-diff-regex",
  "find-renames find-copies find-copies-harder irreversible-delete pickaxe-all pickaxe-regex relative no-relative cached staged merge-base",
  "submodule ignore-submodules dirstat cumulative dirstat-by-file no-index null z abbrev break-rewrites cc combined-all-paths remerge-diff",
  "diff-merges no-diff-merges first-parent full-diff",
].join(" ");
const DIFF_V = "unified inter-hunk-context diff-algorithm anchored stat-width stat-name-width stat-count stat-graph-width src-prefix dst-prefix line-prefix diff-filter skip-to rotate-to ignore-matching-lines orderfile color-moved-ws relative output-indicator-new output-indicator-old output-indicator-context";
const LOG_B = [
  "oneline graph all branches tags remotes reverse merges no-merges follow first-parent left-right cherry-pick cherry-mark cherry ancestry-path",
  "simplify-by-decoration topo-order date-order author-date-order boundary not parents children walk-reflogs no-walk do-walk source use-mailmap",
  "abbrev-commit no-abbrev-commit relative-date log-size show-notes no-notes standard-notes no-decorate clear-decorations mailmap no-mailmap",
  "regexp-ignore-case all-match invert-grep basic-regexp extended-regexp fixed-strings perl-regexp dense sparse full-history simplify-merges",
  "show-pulls show-linear-break no-min-parents no-max-parents bisect stdin count show-linear-break exclude-first-parent-only single-worktree",
  "reflog alternate-refs",
].join(" ");
const LOG_V = "max-count skip since after until before author committer grep grep-reflog min-parents max-parents exclude glob since-as-filter L";

const DIFFISH: Form = { s: "pusRwbWazqBMCDlU", sv: "SGOX", num: true, l: `${DIFF_B} ${PRETTY}`, lv: DIFF_V };
const LOGISH: Form = { s: "pusRwbWazqBMCDlUmcgin", sv: "SGLn", num: true, l: `${DIFF_B} ${LOG_B} ${PRETTY}`, lv: `${DIFF_V} ${LOG_V}` };

const GIT_FORMS: Record<string, Form> = {
  status: { s: "sbvuz", sv: "", l: "short branch porcelain long verbose untracked-files ignored ignore-submodules column no-column ahead-behind no-ahead-behind renames no-renames find-renames show-stash null", lv: "" },
  log: LOGISH,
  shortlog: { ...LOGISH, s: `${LOGISH.s}nsec`, l: `${LOGISH.l} numbered summary email committer`, lv: `${LOGISH.lv} group` },
  show: LOGISH,
  diff: DIFFISH,
  "diff-tree": { ...DIFFISH, s: `${DIFFISH.s}rtmc`, l: `${DIFFISH.l} root always`, lv: DIFF_V },
  "diff-files": DIFFISH,
  "diff-index": { ...DIFFISH, l: `${DIFFISH.l} cached merge-base`, lv: DIFF_V },
  "rev-parse": {
    s: "q",
    l: "verify quiet short abbrev-ref symbolic symbolic-full-name show-toplevel show-cdup show-prefix git-dir git-common-dir absolute-git-dir is-inside-git-dir is-inside-work-tree is-bare-repository is-shallow-repository show-superproject-working-tree shared-index-path all branches tags remotes show-object-format local-env-vars sq sq-quote not revs-only no-revs flags no-flags default prefix path-format since after until before",
    lv: "git-path resolve-git-dir",
  },
  "ls-files": { s: "cdmotiksvfz", sv: "xX", l: "cached deleted modified others ignored stage directory no-empty-directory unmerged killed exclude-standard error-unmatch full-name recurse-submodules abbrev debug eol deduplicate sparse", lv: "exclude exclude-from exclude-per-directory with-tree format" },
  "ls-tree": { s: "dr tz", l: "long name-only name-status object-only full-name full-tree abbrev", lv: "format" },
  blame: { s: "bclstnfpewMC", sv: "LS", l: "root show-stats porcelain line-porcelain incremental show-name show-number show-email score-debug abbrev progress no-progress minimal color-lines color-by-age", lv: "reverse first-parent date contents ignore-rev ignore-revs-file encoding" },
  describe: { l: "all tags contains long always first-parent exact-match debug abbrev candidates dirty broken", lv: "match exclude" },
  grep: { s: "acEFGhHiIlLnoPqrvwz", sv: "efmABC", num: true, l: "cached untracked no-index no-exclude-standard exclude-standard recurse-submodules text textconv-ignore ignore-case word-regexp invert-match full-name extended-regexp basic-regexp perl-regexp fixed-strings line-number column files-with-matches files-without-match name-only null count color no-color break heading show-function function-context all-match quiet and or not", lv: "max-depth max-count threads after-context before-context context" },
  "cat-file": { s: "tspe", l: "textconv-no batch-check batch-all-objects buffer unordered follow-symlinks allow-unknown-type mailmap", lv: "" },
  "rev-list": LOGISH,
  "merge-base": { l: "all octopus independent is-ancestor fork-point" },
  "name-rev": { l: "tags all name-only undefined always annotate-stdin", lv: "refs exclude" },
  "show-ref": { s: "dsq", l: "head dereference hash verify abbrev quiet tags heads branches exists exclude-existing" },
  "for-each-ref": { l: "shell perl python tcl sort points-at merged no-merged contains no-contains ignore-case omit-empty", lv: "count format sort points-at merged no-merged contains no-contains exclude" },
  "count-objects": { s: "vH", l: "verbose human-readable" },
  version: { l: "build-options" },
  branch: { s: "avrl", l: "all remotes list verbose show-current ignore-case omit-empty no-column column", lv: "contains no-contains merged no-merged points-at sort format abbrev color" },
  tag: { s: "l", sv: "n", l: "list ignore-case omit-empty column no-column", lv: "contains no-contains merged no-merged points-at sort format color" },
  remote: { s: "v", l: "verbose" },
  "check-ignore": { s: "qvnz", l: "quiet verbose non-matching no-index stdin" },
  "check-attr": { s: "az", l: "all cached stdin" },
};
const BRANCH_LIST = new Set(["-l", "--list", "-a", "--all", "-r", "--remotes", "--show-current"]);
const GLOBAL_B = new Set(["--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-replace-objects", "--no-advice", "--bare"]);
const GLOBAL_V = new Set(["-C"]);

const off = (why: string): { safe: boolean; why: string } => ({ safe: false, why });

/** git argv (without "git") on the safe list? */
export function gitSafe(args: string[]): { safe: boolean; why: string } {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (GLOBAL_V.has(a)) {
      i++;
      continue;
    }
    if (GLOBAL_B.has(a)) continue;
    if (a === "-c" || a.startsWith("--config-env") || a.startsWith("-c")) return off("git -c can make git run configured programs");
    if (a.startsWith("--exec-path")) return off("git --exec-path picks the programs git runs");
    if (a.startsWith("-")) return off(`git global option ${a} is not known to be read-only`);
    break;
  }
  const sub = args[i] ?? "";
  const rest = args.slice(i + 1);
  if (sub === "") return { safe: true, why: "git (prints its usage)" };
  for (const a of rest) {
    if (a === "--") break;
    if (a.startsWith("--output") || a === "--ext-diff" || a === "--textconv" || a === "--open-files-in-pager" || a.startsWith("--open-files-in-pager=") || /^-O/.test(a) || a === "--show-signature") {
      return off(`git ${sub} ${a} runs a program or writes a file`);
    }
  }
  switch (sub) {
    case "config": {
      const reads = ["--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--show-scope", "--global", "--local", "--system", "--null", "-z", "--name-only", "--type", "--bool", "--int", "--path", "--includes", "--no-includes"];
      const flags = rest.filter((a) => a.startsWith("-"));
      const readOp = rest[0] === "get" || rest[0] === "list" || flags.some((a) => ["--get", "--get-all", "--get-regexp", "--list", "-l"].includes(a));
      return readOp && flags.every((a) => reads.includes(a.split("=")[0]!)) ? { safe: true, why: "git config reads" } : off("git config may write");
    }
    case "stash":
      return (rest[0] === "list" || rest[0] === "show") && rest.slice(1).every((a) => !a.startsWith("-") || ["-p", "--patch", "--stat", "--name-only", "--oneline"].includes(a))
        ? { safe: true, why: "git stash lists" }
        : off("git stash changes the tree");
    case "worktree":
      return rest[0] === "list" && rest.slice(1).every((a) => ["--porcelain", "-v", "--verbose", "-z"].includes(a)) ? { safe: true, why: "git worktree list" } : off("git worktree changes worktrees");
    case "reflog":
      return !rest[0] || rest[0] === "show" || rest[0].startsWith("-") ? formCheck("reflog", LOGISH, rest[0] === "show" ? rest.slice(1) : rest) : off(`git reflog ${rest[0]} writes`);
    case "remote": {
      if (rest[0] === "get-url" || rest[0] === "show") return formCheck("remote", { s: "n", l: "push all" }, rest.slice(1));
      const f = formCheck("remote", GIT_FORMS.remote!, rest);
      return f.safe && rest.some((a) => !a.startsWith("-")) ? off(`git remote ${rest.find((a) => !a.startsWith("-"))} changes remotes`) : f;
    }
    case "branch": {
      const f = formCheck("branch", GIT_FORMS.branch!, rest);
      if (!f.safe) return off(`${f.why} (git branch that deletes, renames, copies, forces or re-points is off the list)`);
      const listing = rest.some((a) => BRANCH_LIST.has(a));
      if (!listing && parseForm(GIT_FORMS.branch!, rest).ops.length) return off("git branch <name> creates a branch");
      return { safe: true, why: "git branch lists" };
    }
    case "tag": {
      const f = formCheck("tag", GIT_FORMS.tag!, rest);
      if (!f.safe) return off(`${f.why} (git tag that creates, signs, forces or deletes is off the list)`);
      const listing = rest.includes("-l") || rest.includes("--list");
      if (!listing && parseForm(GIT_FORMS.tag!, rest).ops.length) return off("git tag <name> creates a tag");
      return { safe: true, why: "git tag lists" };
    }
    default: {
      const form = GIT_FORMS[sub];
      if (!form) return off(`git ${sub} is not read-only`);
      return formCheck(sub, form, rest);
    }
  }
}

function formCheck(sub: string, form: Form, rest: string[]): { safe: boolean; why: string } {
  const p = parseForm(form, rest);
  return p.bad ? off(`git ${sub} ${p.bad} is not known to be read-only`) : { safe: true, why: `git ${sub} reads` };
}
