/**
 * Every git oceancode itself runs goes through here, so nothing of the project's can run from it: a
 * checkout's `.git/config` (or a file it includes) may name programs (fsmonitor, hooks, pager, external
 * diff, editor, askpass, ssh, credential helpers), and git runs them for commands as plain as `ls-files`.
 * Command-line `-c` settings beat every config file, so each exec-capable key is pinned to a harmless
 * value; the environment is rebuilt from a short list (no GIT_* of the parent: GIT_DIR, GIT_CONFIG_*,
 * GIT_EXTERNAL_DIFF… would redirect or extend it), the system config is skipped and every call has a
 * timeout. `remote` calls (plugin clones) keep the user's own credential and ssh settings: the repository
 * they talk to is one oceancode cloned itself, never the checkout's.
 */
import { createRequire } from "node:module";

type ChildProcess = typeof import("node:child_process");
let cp: ChildProcess | undefined;
/** required on first use, not imported: a run that never calls git never loads child_process for it */
const child = (): ChildProcess => (cp ??= createRequire(import.meta.url)("node:child_process") as ChildProcess);

/** Keys whose value git executes, pinned for every call. */
const INERT: ReadonlyArray<readonly [string, string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["core.editor", "true"],
  ["sequence.editor", "true"],
  ["core.askPass", ""],
  ["core.alternateRefsCommand", ""],
  ["core.gitProxy", ""],
  ["diff.external", ""],
  ["gpg.program", "false"],
  ["gpg.ssh.program", "false"],
  ["gpg.x509.program", "false"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["protocol.ext.allow", "never"],
  ["submodule.recurse", "false"],
  ["status.submoduleSummary", "false"],
  ["core.untrackedCache", "false"],
];
/** Also pinned for calls about the checkout (never needed there, and the checkout's config may set them). */
const LOCAL_ONLY: ReadonlyArray<readonly [string, string]> = [
  ["core.sshCommand", ""],
  ["credential.helper", ""],
  ["protocol.allow", "never"],
];

/** Parent variables git may see: locale, where HOME and the user's global config are, proxies and ssh for clones. */
const KEEP = /^(PATH|HOME|USER|LOGNAME|TMPDIR|TZ|LANG|LANGUAGE|LC_[A-Z]+|XDG_CONFIG_HOME|SSH_AUTH_SOCK|SYSTEMROOT)$/;
const KEEP_REMOTE = /^(GIT_SSH|GIT_SSH_COMMAND|GIT_SSH_VARIANT|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY|all_proxy|ALL_PROXY|GIT_SSL_CAINFO|GIT_SSL_CAPATH|SSL_CERT_FILE|SSL_CERT_DIR)$/;
/** Diff-family commands also get --no-ext-diff and --no-textconv (drivers named by .gitattributes). */
const DIFFISH = new Set(["diff", "log", "show", "diff-files", "diff-index", "diff-tree", "whatchanged", "format-patch", "blame", "grep"]);

export interface GitOptions {
  cwd?: string;
  /** ms, default 5000 (remote: 120000); git is killed after it */
  timeoutMs?: number;
  /** a clone or fetch oceancode runs for itself: keep the user's credential helper, ssh and proxies */
  remote?: boolean;
  /** extra variables for this call (GIT_INDEX_FILE of a private store, …) */
  env?: Record<string, string>;
  input?: string | Buffer;
}

export interface GitResult {
  /** null when git did not run or was killed */
  status: number | null;
  stdout: string;
  stderr: string;
  /** why git did not run (ENOENT: no git binary) or was stopped (timeout) */
  error?: Error;
}

/** The argument list with the inert settings in front: `git <these> <args>`. */
export function inertArgs(args: readonly string[], remote = false): string[] {
  const pins = remote ? INERT : [...INERT, ...LOCAL_ONLY];
  const out = ["--no-pager"];
  for (const [k, v] of pins) out.push("-c", `${k}=${v}`);
  // options of the subcommand go after its name: find it past global options we were handed
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += args[i] === "-C" || args[i] === "-c" || args[i] === "--git-dir" || args[i] === "--work-tree" ? 2 : 1;
  const sub = args[i];
  if (sub !== undefined && DIFFISH.has(sub)) return [...out, ...args.slice(0, i + 1), "--no-ext-diff", "--no-textconv", ...args.slice(i + 1)];
  return [...out, ...args];
}

/** The environment git runs with: a few parent variables, no GIT_* of the parent, no system config, never a prompt. */
export function inertEnv(parent: NodeJS.ProcessEnv = process.env, opts: Pick<GitOptions, "remote" | "env"> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && (KEEP.test(k) || (opts.remote && KEEP_REMOTE.test(k)))) env[k] = v;
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_ALLOW_PROTOCOL: opts.remote ? "file:https:http:ssh:git" : "none",
    ...opts.env,
  });
  return env;
}

/** Run git and wait (sync): for the few calls made while config is layered, before anything is async. */
export function gitSync(args: readonly string[], opts: GitOptions = {}): GitResult {
  const r = child().spawnSync("git", inertArgs(args, opts.remote), {
    cwd: opts.cwd,
    env: inertEnv(process.env, opts),
    encoding: "utf8",
    timeout: opts.timeoutMs ?? (opts.remote ? 120_000 : 5000),
    killSignal: "SIGKILL",
    input: opts.input,
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 64 << 20,
    windowsHide: true,
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ...(r.error ? { error: r.error } : {}) };
}

/** Run git (async), resolving with its stdout as bytes; rejects with git's stderr when it fails. */
export function gitBuffer(args: readonly string[], opts: GitOptions & { maxBuffer?: number } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const proc = child().execFile(
      "git",
      inertArgs(args, opts.remote),
      { cwd: opts.cwd, env: inertEnv(process.env, opts), encoding: "buffer", maxBuffer: opts.maxBuffer ?? 1 << 30, timeout: opts.timeoutMs ?? 120_000, killSignal: "SIGKILL", windowsHide: true },
      (err, stdout, stderr) => (err ? reject(new Error(`git ${args.find((a) => !a.startsWith("-")) ?? ""}: ${String(stderr).trim() || err.message}`)) : resolve(stdout)),
    );
    if (opts.input !== undefined) proc.stdin?.end(opts.input);
  });
}
