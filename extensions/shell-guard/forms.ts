/**
 * The read-only safe list as an allow-list of forms: for each command, the flags known to only read
 * (boolean short letters, short letters that take a value, long names, long names that take a value).
 * A flag not listed takes the command off the safe list, so an exec/write/pager option nobody thought
 * of (sort --compress-program, fd -x, rg --pre) asks instead of running. Pure data plus its parser.
 */

export interface Form {
  /** boolean short letters (combinable: -la) */
  s?: string;
  /** short letters whose value is the rest of the word or the next word (-n 5, -n5) */
  sv?: string;
  /** long names that take no value, or an optional `=value` (--color=auto) */
  l?: string;
  /** long names that take a value (--max-count 5, --max-count=5) */
  lv?: string;
  /** `-5` style numeric short flags (head -20, tail -n +3 is sv) */
  num?: boolean;
  /** every argument is fine (echo, printf, test) */
  any?: boolean;
  /** a check on the operands: why they are not read-only, if they are not */
  ops?: (ops: string[]) => string | undefined;
}

const words = (s: string | undefined): Set<string> => new Set((s ?? "").split(/\s+/).filter(Boolean));
/** the long-name sets of a form, built once (the guard runs on every bash call) */
const longs = new WeakMap<Form, { l: Set<string>; lv: Set<string> }>();
function longSets(form: Form): { l: Set<string>; lv: Set<string> } {
  let hit = longs.get(form);
  if (!hit) longs.set(form, (hit = { l: words(form.l), lv: words(form.lv) }));
  return hit;
}

const LS: Form = {
  s: "aAbBcCdfFgGhHiklLmnNopqQrRsStuUvwxX1Z",
  sv: "IT",
  l: "all almost-all author escape directory classify file-type human-readable si dereference-command-line dereference-command-line-symlink-to-dir inode kibibytes dereference numeric-uid-gid literal hide-control-chars show-control-chars quote-name recursive size group-directories-first no-group full-time color context zero",
  lv: "block-size format hide ignore indicator-style quoting-style sort time time-style tabsize width",
};
const HEAD: Form = { s: "qvz", sv: "nc", num: true, l: "quiet silent verbose zero-terminated", lv: "lines bytes" };
const TAIL: Form = { s: "fFqvzr", sv: "ncs", num: true, l: "follow retry quiet silent verbose zero-terminated", lv: "lines bytes sleep-interval pid max-unchanged-stats" };
const GREP: Form = {
  s: "EFGPiIvwxyclLoqsbHhnTZzaruUR",
  sv: "efmABCdD",
  num: true,
  l: "extended-regexp fixed-strings basic-regexp perl-regexp ignore-case no-ignore-case invert-match word-regexp line-regexp count color colour files-without-match files-with-matches only-matching quiet silent no-messages byte-offset with-filename no-filename line-number initial-tab null null-data text recursive dereference-recursive line-buffered binary",
  lv: "regexp file max-count after-context before-context context label binary-files devices directories exclude exclude-from exclude-dir include",
};
const RG: Form = {
  s: "aciIlLnNopqsSuUvwxzF0H",
  sv: "eABCgmtTjMrEfd",
  num: true,
  l: "text count count-matches case-sensitive ignore-case smart-case files files-with-matches files-without-match follow hidden no-hidden no-ignore no-ignore-vcs no-ignore-dot no-ignore-global no-ignore-parent no-ignore-exclude no-ignore-files line-number no-line-number only-matching quiet invert-match word-regexp line-regexp search-zip fixed-strings null null-data no-heading heading with-filename no-filename column no-column vimgrep json no-messages multiline multiline-dotall pcre2 no-pcre2 stats trim unrestricted sort-files list-file-types type-list binary no-binary byte-offset crlf one-file-system passthru passthrough no-config max-columns-preview glob-case-insensitive line-buffered block-buffered debug trace files-sorted",
  lv: "regexp after-context before-context context glob iglob max-count type type-not threads max-columns replace encoding max-depth maxdepth max-filesize sort sortr color colors context-separator field-context-separator field-match-separator path-separator type-add type-clear file dfa-size-limit regex-size-limit engine hyperlink-format",
};
const DIFF: Form = {
  s: "abBdEiNpqrsTtuwyZ",
  sv: "CDFIlLSUWx",
  num: true,
  l: "text ignore-space-change ignore-blank-lines brief report-identical-files expand-tabs initial-tab ignore-case ignore-all-space ignore-tab-expansion ignore-trailing-space minimal new-file unidirectional-new-file recursive side-by-side suppress-common-lines left-column show-c-function strip-trailing-cr speed-large-files suppress-blank-empty color no-dereference",
  lv: "context unified ignore-matching-lines label show-function-line starting-file exclude exclude-from width tabsize horizon-lines line-format old-line-format new-line-format unchanged-line-format old-group-format new-group-format changed-group-format unchanged-group-format to-file from-file palette",
};
const SUMS: Form = { s: "bctwz", l: "binary check tag text zero ignore-missing quiet status strict warn" };
const CUT: Form = { s: "snz", sv: "bcdf", l: "only-delimited complement zero-terminated", lv: "bytes characters delimiter fields output-delimiter" };
const STAT: Form = { s: "LfQUt", sv: "c", l: "dereference file-system terse", lv: "format printf cached" };
const DU: Form = { s: "0abcDhHklLmPsSx", sv: "dBtX", l: "null all apparent-size bytes total dereference-args human-readable si inodes count-links dereference no-dereference separate-dirs summarize one-file-system", lv: "max-depth block-size threshold time time-style exclude exclude-from" };
const DF: Form = { s: "ahHiklPTv", sv: "Bt", l: "all human-readable si inodes local no-sync sync portability print-type total", lv: "block-size type exclude-type output" };
const SORT: Form = {
  s: "bdfgiMhnRrVcCmsuz",
  sv: "kStT",
  l: "ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort reverse version-sort check merge stable unique zero-terminated debug",
  lv: "key field-separator buffer-size sort random-source parallel batch-size",
  // not listed: -o/--output (writes a file), --compress-program (runs a program), -T/--temporary-directory is harmless but rarely needed
};
const WC: Form = { s: "clmwL", l: "bytes chars lines words max-line-length total", lv: "files0-from" };
const TR: Form = { s: "cCdst", l: "complement delete squeeze-repeats truncate-set1" };
const PASTE: Form = { s: "sz", sv: "d", l: "serial zero-terminated", lv: "delimiters" };
const NL: Form = { s: "p", sv: "bdfhilnsvw", l: "no-renumber", lv: "body-numbering section-delimiter footer-numbering header-numbering line-increment join-blank-lines number-format number-separator starting-line-number number-width" };
const OD: Form = { s: "bcdfilosvx", sv: "AjNSwt", l: "output-duplicates traditional", lv: "address-radix skip-bytes read-bytes strings format width endian" };
const PS: Form = { s: "aAcdefFhHjlLmMNrsSTuvVwxXyZ", sv: "CgGopqtU", num: true, l: "forest headers no-headers cumulative deselect", lv: "format sort pid ppid user group cols columns rows sid tty" };
const COMM: Form = { s: "123iz", l: "check-order nocheck-order total zero-terminated", lv: "output-delimiter" };
const JOIN: Form = { s: "iz", sv: "aejotv12", l: "ignore-case check-order nocheck-order header zero-terminated" };
const FOLD: Form = { s: "bs", sv: "w", num: true, l: "bytes spaces", lv: "width" };
const EXPAND: Form = { s: "i", sv: "t", num: true, l: "initial first-only all", lv: "tabs" };
const COLUMN: Form = { s: "tnxre", sv: "scoNHiWRdTE", l: "table fillrows json keep-empty-lines table-noheadings", lv: "separator output-separator table-columns table-name table-right table-wrap table-hide table-truncate table-order table-noextreme table-columns-limit" };
const TREE: Form = { s: "adlfxpsughDFqNQrtvcACSJX", sv: "LPIH", l: "noreport charset dirsfirst du prune filelimit timefmt si gitignore inodes device sort matchdirs", lv: "charset filelimit timefmt sort" };
const FD: Form = {
  s: "HIsiFagLpl0uSq",
  sv: "detEcjS",
  l: "hidden no-ignore no-ignore-vcs case-sensitive ignore-case fixed-strings absolute-path list-details follow full-path print0 glob regex show-errors one-file-system unrestricted no-ignore-parent prune quiet",
  lv: "max-depth min-depth exact-depth type extension exclude size changed-within changed-before owner base-directory path-separator search-path color threads max-results ignore-file and",
  // not listed: -x/--exec, -X/--exec-batch
};
const JQ: Form = { s: "nrjacCSesMe", sv: "L", l: "null-input raw-input slurp compact-output raw-output join-output ascii-output sort-keys color-output monochrome-output tab exit-status seq stream stream-errors raw-output0", lv: "indent arg argjson" };
const DATE: Form = { s: "Ru", sv: "dIr", l: "utc universal rfc-email debug", lv: "date iso-8601 rfc-3339 reference" };
const UNAME: Form = { s: "asnrvmpio", l: "all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system" };
const READLINK: Form = { s: "fenmqsvz", l: "canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero" };
const REALPATH: Form = { s: "eLmPqsz", l: "canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero", lv: "relative-to relative-base" };
const FILE: Form = { s: "bcdEhiIkLNnprsSvz0", sv: "eFfmP", l: "brief dereference no-dereference mime mime-type mime-encoding keep-going no-pad no-buffer print0 raw special-files uncompress uncompress-noreport extension apple preserve-date", lv: "exclude exclude-quiet separator files-from magic-file parameter" };
const ID: Form = { s: "agGnruzZ", l: "context group groups name real user zero" };
const STRINGS: Form = { s: "afw", sv: "ntTeEs", num: true, l: "all print-file-name include-all-whitespace", lv: "bytes radix target encoding output-separator" };
const HEXDUMP: Form = { s: "bcCdoxv", sv: "enfs", l: "canonical no-squeezing", lv: "length skip format format-file" };
const LSOF: Form = { s: "abClnNOPRtUvVwXhHi", sv: "cdDgkLoprsSTu+", num: true };
const PGREP: Form = { s: "cflvwxnoaiAr", sv: "dgGPstuUF", l: "count full list-name list-full inverse lightweight exact newest oldest ignore-case ignore-ancestors", lv: "delimiter pgroup group parent session terminal euid uid pidfile ns nslist signal" };
const UNIQ: Form = {
  s: "cdDiuz",
  sv: "fsw",
  num: true,
  l: "count repeated all-repeated ignore-case unique zero-terminated group",
  lv: "skip-fields skip-chars check-chars",
  // uniq IN OUT writes OUT
  ops: (ops) => (ops.length > 1 ? "uniq with an output file writes" : undefined),
};
const CMP: Form = { s: "blsz", sv: "in", l: "print-bytes verbose quiet silent zero-terminated", lv: "ignore-initial bytes" };
const WHICH: Form = { s: "as", l: "all skip-alias skip-functions read-alias read-functions skip-dot skip-tilde show-dot show-tilde tty-only" };
const FREE: Form = { s: "bkmghltvwL", sv: "sc", l: "bytes kilo mega giga tera peta kibi mebi gibi tebi pebi human wide lohi total committed si", lv: "seconds count" };
const PLAIN: Form = {};
const ANY: Form = { any: true };

export const FORMS: Record<string, Form> = {
  ls: LS, dir: LS, head: HEAD, tail: TAIL, wc: WC, grep: GREP, egrep: GREP, fgrep: GREP, rg: RG, fd: FD, fdfind: FD, tree: TREE, cut: CUT,
  diff: DIFF, cmp: CMP, comm: COMM, stat: STAT, du: DU, df: DF, sort: SORT, uniq: UNIQ, tr: TR, paste: PASTE, nl: NL, od: OD, ps: PS,
  join: JOIN, fold: FOLD, expand: EXPAND, unexpand: EXPAND, column: COLUMN, jq: JQ, date: DATE, uname: UNAME, readlink: READLINK,
  realpath: REALPATH, file: FILE, id: ID, strings: STRINGS, hexdump: HEXDUMP, lsof: LSOF, pgrep: PGREP, which: WHICH, free: FREE,
  md5sum: SUMS, sha1sum: SUMS, sha224sum: SUMS, sha256sum: SUMS, sha384sum: SUMS, sha512sum: SUMS, b2sum: SUMS, cksum: PLAIN,
  cat: { s: "AbeEnstTuv", l: "show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting" },
  tac: { s: "br", sv: "s", l: "before regex", lv: "separator" },
  rev: PLAIN, pwd: { s: "LP", l: "logical physical" }, whoami: PLAIN, groups: PLAIN, tty: { s: "s", l: "silent quiet" }, nproc: { l: "all", lv: "ignore" },
  uptime: { s: "ps", l: "pretty since" }, locale: { s: "akmvc", l: "all-locales charmaps keyword-name category-name verbose" },
  basename: { s: "az", sv: "s", l: "multiple zero", lv: "suffix" }, dirname: { s: "z", l: "zero" },
  whereis: { s: "bmsul", sv: "BMSf" }, type: { s: "afptP" }, printenv: { s: "0", l: "null" }, seq: { s: "w", sv: "fs", num: true, l: "equal-width", lv: "format separator" },
  sleep: PLAIN, echo: ANY, printf: ANY, true: ANY, false: ANY, test: ANY, "[": ANY,
};

export interface Parsed {
  ops: string[];
  /** the first flag not on the form, or a value flag with no value */
  bad?: string;
}

/** Split args by a form: operands, or the first flag the form does not know. */
export function parseForm(form: Form, args: string[]): Parsed {
  if (form.any) return { ops: args };
  const s = form.s ?? "";
  const sv = form.sv ?? "";
  const { l, lv } = longSets(form);
  const ops: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      ops.push(...args.slice(i + 1));
      break;
    }
    if (a === "-" || !a.startsWith("-")) {
      ops.push(a);
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (lv.has(name)) {
        if (eq < 0 && ++i >= args.length) return { ops, bad: a };
        continue;
      }
      if (l.has(name)) continue;
      return { ops, bad: a };
    }
    if (form.num && /^-\d+[a-zA-Z]?$/.test(a)) continue;
    for (let k = 1; k < a.length; k++) {
      const c = a[k]!;
      if (sv.includes(c)) {
        if (k === a.length - 1 && ++i >= args.length) return { ops, bad: a };
        break;
      }
      if (s.includes(c)) continue;
      if (form.num && /\d/.test(c)) continue;
      return { ops, bad: a };
    }
  }
  return { ops };
}
