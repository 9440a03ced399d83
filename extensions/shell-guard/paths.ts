/**
 * What a path means to the guard: a secret (a .env file, a private key, a cloud or registry
 * credential), or a place where a write persists outside the task (~/.ssh, shell startup files,
 * cron, git hooks, systemd user units). Pure string tests: the guard never looks at the disk.
 * Globs (`.env*`, `~/.ssh/id_*`) and simple brace lists (`.env{,.local}`) count when they could
 * match a secret.
 */
import path from "node:path";

export interface PathCtx {
  cwd: string;
  home: string;
}

const ENV_TEMPLATES = new Set(["example", "sample", "template", "dist"]);

/** `.env`, `.env.*`, `*.env`, `*.env.*`; not the templates (`.env.example`, `app.env.sample`). */
export function isEnvFile(base: string): boolean {
  const b = base.toLowerCase();
  if (b !== ".env" && !b.endsWith(".env") && !b.includes(".env.")) return false;
  const last = b.slice(b.lastIndexOf(".") + 1);
  return !ENV_TEMPLATES.has(last);
}

/** Default names of ssh private keys, secret wherever they are copied. */
const KEY_NAME = /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/;
/** Credential files secret under any directory (they are only ever credentials). */
const ANYWHERE = new Set([".netrc", ".git-credentials", ".pypirc"]);

/** Secrets relative to the home directory: [path components, what they are]; `**` = anything below. */
const HOME_SECRETS: Array<[RegExp, string]> = [
  [/^\.ssh\/(.+\/)?((?!.*\.pub$)id_[^/]*|[^/]+\.(pem|key))$/, "an ssh private key"],
  [/^\.aws\/(credentials|config|sso\/cache\/.+|cli\/cache\/.+)$/, "AWS credentials"],
  [/^\.config\/gcloud(\/.+)?$/, "Google Cloud credentials"],
  [/^\.azure(\/.+)?$/, "Azure credentials"],
  [/^\.docker\/config\.json$/, "Docker registry credentials"],
  [/^\.kube\/config$/, "a Kubernetes config"],
  [/^\.npmrc$/, "npm registry credentials"],
  [/^\.gnupg(\/.+)?$/, "GnuPG keys"],
  [/^\.config\/gh(\/hosts\.yml)?$/, "GitHub CLI credentials"],
  // the directories that hold only secrets: reading them whole (tar, cp -r, grep -r) reads the secrets
  [/^\.(ssh|aws)$/, "a directory of credentials"],
];

/** Representative secret paths, for deciding whether a glob could match one. */
const PROC_SAMPLES = ["/proc/self/environ", "/proc/1/environ", "/proc/self/cmdline", "/proc/1/cmdline", "/proc/self/mem", "/proc/self/fd/0"];
const HOME_SAMPLES = [
  ".ssh/id_rsa", ".ssh/id_ed25519", ".ssh/id_ecdsa", ".ssh/id_dsa", ".ssh/key.pem", ".ssh/key.key",
  ".aws/credentials", ".aws/config", ".config/gcloud/credentials.db", ".config/gcloud/application_default_credentials.json",
  ".azure/accessTokens.json", ".azure/msal_token_cache.json", ".docker/config.json", ".kube/config", ".npmrc", ".pypirc",
  ".netrc", ".git-credentials", ".gnupg/secring.gpg", ".gnupg/private-keys-v1.d/k.key", ".config/gh/hosts.yml",
];
const ENV_SAMPLES = [".env", ".env.local", ".env.production", ".env.prod", ".env.development", ".env.dev", ".env.test", ".env.staging"];
/** `prod.env`: only tried when the glob names "env" itself, so `cat *` does not ask. */
const NAMED_ENV_SAMPLES = ["prod.env", "local.env", "app.env", "dev.env"];

function inside(p: string, dir: string): string | undefined {
  const rel = path.relative(dir, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : undefined;
}

/** How a path reads in a reason: relative to the cwd inside it, `~/…` under home, else absolute. */
export function display(abs: string, ctx: PathCtx): string {
  const inCwd = inside(abs, ctx.cwd);
  if (inCwd) return inCwd;
  const inHome = inside(abs, ctx.home);
  return inHome ? `~/${inHome}` : abs;
}

/**
 * A process's environment, command line, memory and open files: oceancode's own hold the API keys
 * (/proc/$PPID/environ, /proc/self/fd/N). Any pid, `self`, `thread-self`, and their tasks.
 */
const PROC_SECRET = /^\/proc\/[^/]+(\/task\/[^/]+)?\/(environ|cmdline|mem|fd(\/.*)?|fdinfo(\/.*)?|map_files(\/.*)?|auxv|root(\/.*)?|cwd(\/.*)?)$/;
/** /dev/fd/N past stdio is /proc/self/fd/N: a descriptor oceancode may hold a secret on */
const FD_SECRET = /^\/dev\/fd\/([3-9]|\d{2,})$/;
export const procSecret = (abs: string): boolean => PROC_SECRET.test(abs) || FD_SECRET.test(abs);

/** What secret an absolute, glob-free path is, or undefined. */
function secretAt(abs: string, home: string): string | undefined {
  if (procSecret(abs)) return "a process's environment, command line or memory";
  const base = path.basename(abs);
  if (isEnvFile(base)) return "a .env file";
  if (KEY_NAME.test(base)) return "an ssh private key";
  if (ANYWHERE.has(base)) return "a credentials file";
  // under our home, or another user's (sudo cat /root/.aws/credentials)
  const rel = inside(abs, home) ?? OTHER_HOME_PATH.exec(abs)?.[2];
  if (rel) for (const [re, what] of HOME_SECRETS) if (re.test(rel)) return what;
  return undefined;
}

const OTHER_HOME_PATH = /^\/(root|home\/[^/]+|Users\/[^/]+)\/(.+)$/;

const GLOB = /[*?[]/;

/**
 * Bash pathname expansion as a RegExp: `*` and `?` stay in one component and, with `period` (the
 * shell's rule), skip leading dots; find -name and grep --include match dotfiles (no `period`).
 */
export function globToRegExp(glob: string, period = true): RegExp {
  let src = "";
  let atStart = true;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const lead = period && atStart && (c === "*" || c === "?" || c === "[") ? "(?!\\.)" : "";
    atStart = c === "/";
    if (c === "*") {
      if (glob[i + 1] === "*") {
        src += `${lead}.*`;
        i++;
      } else src += `${lead}[^/]*`;
    } else if (c === "?") src += `${lead}[^/]`;
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) src += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
        src += `${lead}[${body}]`;
        i = end;
      }
    } else src += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${src}$`);
}

/** `a{b,c}d` -> abd, acd (one level, a bounded number of words); anything else as is. */
export function expandBraces(word: string): string[] {
  if (!word.includes("{")) return [word];
  const m = /^(.*?)\{([^{}]*,[^{}]*)\}(.*)$/s.exec(word);
  if (!m) return [word];
  const out: string[] = [];
  for (const alt of m[2]!.split(",")) for (const rest of expandBraces(m[3]!)) if (out.length < 32) out.push(m[1]! + alt + rest);
  return out;
}

/** The absolute form of a shell word (its `~` already resolved by the word resolver). */
export function absPath(word: string, ctx: PathCtx): string {
  const w = word.startsWith("~/") || word === "~" ? ctx.home + word.slice(1) : word;
  return path.resolve(ctx.cwd, w);
}

/** Does this word name (or, as a glob, could it match) a secret? Returns the reason's wording. */
/**
 * Cheap pre-checks (the guard runs on every bash call): a path with none of these in it, together
 * with the directory it resolves against, can be neither a secret nor a persistent place.
 */
const SECRET_HINT = /env|proc|\/fd\/|id_|\.pem|\.key|netrc|credentials|pypirc|npmrc|\.ssh|\.aws|gcloud|\.azure|\.docker|\.kube|\.gnupg|\/gh|[*?[{]/i;
const PERSIST_HINT = /\.ssh|rc$|rc\/|bash|profile|zshenv|zlog|fish|cron|\.git|systemd|autostart|launch|environment|\{/i;
const hinted = (word: string, ctx: PathCtx, hint: RegExp): boolean => hint.test(word) || (!word.startsWith("/") && hint.test(ctx.cwd));

export function secretPath(word: string, ctx: PathCtx): string | undefined {
  if (word === "" || word === "-" || word.length > 4096 || !hinted(word, ctx, SECRET_HINT)) return undefined;
  for (const w of expandBraces(word)) {
    const abs = absPath(w, ctx);
    if (!GLOB.test(w)) {
      const what = secretAt(abs, ctx.home);
      if (what) return `${display(abs, ctx)} (${what})`;
      continue;
    }
    const re = globToRegExp(abs);
    const dir = path.dirname(abs);
    const candidates = [...HOME_SAMPLES.map((s) => path.join(ctx.home, s)), ...PROC_SAMPLES];
    if (!GLOB.test(dir)) {
      candidates.push(...ENV_SAMPLES.map((s) => path.join(dir, s)));
      if (/env/i.test(path.basename(abs))) candidates.push(...NAMED_ENV_SAMPLES.map((s) => path.join(dir, s)));
    }
    const hit = candidates.find((c) => re.test(c));
    if (hit) return `${display(abs, ctx)}, which matches ${display(hit, ctx)} (${secretAt(hit, ctx.home) ?? "a secret"})`;
  }
  return undefined;
}

/** Could a basename glob (find -name, grep --include) match a secret's name? */
export function secretNameGlob(glob: string): string | undefined {
  const re = globToRegExp(glob, false);
  const names = [...ENV_SAMPLES, ...NAMED_ENV_SAMPLES, "id_rsa", "id_ed25519", "id_ecdsa", ".netrc", ".git-credentials", ".pypirc"];
  const hit = names.find((n) => re.test(n));
  if (!hit) return undefined;
  return GLOB.test(glob) ? `files named '${glob}' (it matches ${hit})` : `files named ${glob}`;
}

/** Where a write persists beyond the task, relative to home, with what it is. */
const HOME_PERSIST: Array<[RegExp, string]> = [
  [/^\.ssh(\/.*)?$/, "ssh keys and logins"],
  [/^\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|zlogout)$/, "a shell startup file"],
  [/^\.config\/fish\/(config\.fish|conf\.d(\/.*)?)$/, "a shell startup file"],
  [/^\.config\/systemd\/user(\/.*)?$/, "a systemd user unit"],
  [/^\.config\/autostart(\/.*)?$/, "a login autostart entry"],
  [/^Library\/LaunchAgents(\/.*)?$/, "a launchd agent"],
];
const OTHER_HOME = String.raw`^/(root|home/[^/]+|Users/[^/]+)/`;
const SYSTEM_PERSIST: Array<[RegExp, string]> = [
  // another user's home (sudo tee -a /root/.ssh/authorized_keys)
  [new RegExp(`${OTHER_HOME}\\.ssh(/.*)?$`), "ssh keys and logins"],
  [new RegExp(`${OTHER_HOME}\\.(bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin)$`), "a shell startup file"],
  [/^\/etc\/(profile|bash\.bashrc|bashrc|zshrc|zshenv|zprofile|environment)$/, "a system shell startup file"],
  [/^\/etc\/(profile\.d|zsh)(\/.*)?$/, "a system shell startup file"],
  [/^\/etc\/cron[^/]*(\/.*)?$/, "cron"],
  [/^\/var\/spool\/cron(\/.*)?$/, "cron"],
  [/^\/etc\/systemd(\/.*)?$/, "a systemd unit"],
  [/^\/Library\/Launch(Agents|Daemons)(\/.*)?$/, "a launchd job"],
  [/(^|\/)\.git\/hooks(\/.*)?$/, "git hooks (run on every commit, checkout, push)"],
  [/(^|\/)\.git\/config$/, "the git config (it can name hooks and programs git runs)"],
];

/** Does a write to this word persist outside the task? Returns the reason's wording. */
export function persistPath(word: string, ctx: PathCtx): string | undefined {
  if (word === "" || word === "-" || !hinted(word, ctx, PERSIST_HINT)) return undefined;
  for (const w of expandBraces(word)) {
    const abs = absPath(w, ctx);
    const rel = abs === ctx.home ? undefined : inside(abs, ctx.home);
    if (rel) for (const [re, what] of HOME_PERSIST) if (re.test(rel)) return `${display(abs, ctx)} (${what})`;
    for (const [re, what] of SYSTEM_PERSIST) if (re.test(abs)) return `${display(abs, ctx)} (${what})`;
  }
  return undefined;
}

/** Is `p` an ancestor of `of` (strictly) or equal to it when `orSelf`? */
export function isAncestor(p: string, of: string, orSelf: boolean): boolean {
  const rel = path.relative(p, of);
  if (rel === "") return orSelf;
  return !rel.startsWith("..") && !path.isAbsolute(rel);
}
