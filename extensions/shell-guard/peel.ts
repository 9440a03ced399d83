/**
 * Wrapper peeling: sudo, doas, pkexec, env, nice, ionice, timeout, xargs, command, exec, nohup, time,
 * stdbuf, setsid, watch, busybox, builtin, taskset, chroot, flock, unshare, nsenter, strace, ltrace,
 * runuser, su -c / script -c (their command string becomes `sh -c …`), leading VAR=val and absolute
 * paths (/bin/rm -> rm). What is left is the command that actually runs.
 */
import type { Resolved } from "./words.js";

export interface Peeled {
  argv: Resolved[];
  wrappers: string[];
  /** xargs supplies more arguments from stdin: the targets are unknowable */
  fromStdin: boolean;
  /** environment names the command is given (VAR=val before it, env VAR=val) */
  assigned: string[];
}

/** options that take a value, per wrapper */
const VALUE_OPTS: Record<string, string[]> = {
  sudo: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--chdir", "--prompt", "--role", "--type", "--other-user", "--close-from", "--host", "--command-timeout"],
  doas: ["-u", "-C"],
  env: ["-u", "-C", "--unset", "--chdir"],
  nice: ["-n", "--adjustment"],
  ionice: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"],
  timeout: ["-s", "-k", "--signal", "--kill-after"],
  xargs: ["-I", "-n", "-L", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-lines", "--max-procs", "--max-chars", "--delimiter", "--eof", "--arg-file", "--replace", "--process-slot-var"],
  stdbuf: ["-i", "-o", "-e", "--input", "--output", "--error"],
  watch: ["-n", "-d", "--interval", "--differences"],
  time: ["-f", "-o", "--format", "--output"],
  setsid: [],
  nohup: [],
  exec: ["-a"],
  command: [],
  builtin: [],
  busybox: [],
  chrt: [],
  caffeinate: [],
  unbuffer: [],
  pkexec: ["--user"],
  coproc: [],
  taskset: [],
  chroot: [],
  flock: ["-w", "--timeout", "-E", "--conflict-exit-code"],
  unshare: ["-S", "-G", "-R", "-w", "--setuid", "--setgid", "--root", "--wd"],
  nsenter: ["-t", "--target", "-S", "-G", "-r", "-w", "--setuid", "--setgid", "--root", "--wd"],
  strace: ["-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"],
  ltrace: ["-o", "-e", "-p", "-s", "-u", "-a", "-n", "-A", "-D", "-F", "-l", "-x"],
  runuser: ["-u", "-g", "-G", "--user", "--group", "--supp-group", "-s", "--shell", "-w", "--whitelist-environment"],
  su: ["-s", "--shell", "-g", "-G", "--group", "--supp-group", "-w", "--whitelist-environment"],
  script: ["-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format"],
};

/** Positional words a wrapper takes before the command: timeout DURATION, taskset MASK, chroot DIR, flock FILE. */
const POSITIONALS: Record<string, number> = { timeout: 1, chrt: 1, taskset: 1, chroot: 1, flock: 1 };
/** Wrappers whose `-c STRING` (or --command) is a command line run by a shell. */
const COMMAND_STRING = new Set(["su", "runuser", "script", "flock"]);
const isCommandFlag = (v: string): boolean => v === "-c" || v === "--command" || /^-[a-zA-Z]+c$/.test(v);

export const WRAPPERS = new Set(Object.keys(VALUE_OPTS));

export function baseName(cmd: string): string {
  const i = cmd.lastIndexOf("/");
  return i >= 0 && i < cmd.length - 1 ? cmd.slice(i + 1) : cmd;
}

const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function peel(argvIn: Resolved[]): Peeled {
  let argv = argvIn.slice();
  const wrappers: string[] = [];
  let fromStdin = false;
  const assigned: string[] = [];
  for (let guard = 0; guard < 32; guard++) {
    while (argv.length && ASSIGN.test(argv[0]!.value)) assigned.push(argv.shift()!.value.split("=")[0]!);
    if (!argv.length) break;
    const head = argv[0]!;
    const name = baseName(head.value);
    if (name !== head.value) argv[0] = { value: name, known: head.known };
    if (!head.known || !WRAPPERS.has(name)) break;
    // `command -v x` / `command -V x` only looks a name up
    if (name === "command" && argv.some((a) => a.value === "-v" || a.value === "-V")) break;
    const valued = VALUE_OPTS[name]!;
    let i = 1;
    if (name === "env") {
      // env -S "cmd args" splits its string into words: checked as shell text (sh -c), so a `~` or
      // `$HOME` in it counts as the home directory, whatever env itself would expand
      let split: Resolved | undefined;
      for (; i < argv.length; i++) {
        const v = argv[i]!.value;
        if (v === "--") {
          i++;
          break;
        }
        const at = /^(--split-string=|-[iv0]*S)(.+)$/s.exec(v);
        if (at) {
          split = { value: at[2]!, known: argv[i]!.known };
          i++;
          break;
        }
        if (v === "-S" || v === "--split-string" || /^-[iv0]+S$/.test(v)) {
          split = argv[i + 1];
          i += 2;
          break;
        }
        if (valued.includes(v)) {
          i++;
          continue;
        }
        if (ASSIGN.test(v)) assigned.push(v.split("=")[0]!);
        if (v.startsWith("-") || ASSIGN.test(v)) continue;
        break;
      }
      wrappers.push(name);
      if (split) {
        const rest = argv.slice(i).map((a) => (a.known ? `'${a.value.replace(/'/g, "'\\''")}'` : a.value));
        argv = [{ value: "sh", known: true }, { value: "-c", known: true }, { value: [split.value, ...rest].join(" "), known: split.known }];
        break;
      }
      argv = argv.slice(i);
      continue;
    }
    if (COMMAND_STRING.has(name)) {
      // su [-] [user] -c 'cmd', script -qc 'cmd' file, flock FILE -c 'cmd': a shell runs the string
      const ci = argv.findIndex((a, k) => k > 0 && a.known && isCommandFlag(a.value) && !valued.includes(argv[k - 1]!.value));
      if (ci > 0 && argv[ci + 1]) {
        wrappers.push(name);
        argv = [{ value: "sh", known: true }, { value: "-c", known: true }, argv[ci + 1]!];
        break;
      }
    }
    for (; i < argv.length; i++) {
      const v = argv[i]!.value;
      if (v === "--") {
        i++;
        break;
      }
      if (!v.startsWith("-") || v === "-") break;
      if (valued.includes(v)) i++;
      else if (name === "nice" && /^-\d+$/.test(v)) continue;
    }
    i += Math.min(POSITIONALS[name] ?? 0, argv.length - i);
    // coproc NAME { cmd; }: tree-sitter reads it as the words NAME { cmd
    if (name === "coproc") i += argv[i]?.value === "{" ? 1 : argv[i + 1]?.value === "{" ? 2 : 0;
    // su / script without -c run a login shell: nothing left to peel (runuser -u x -- cmd is peeled)
    if ((name === "su" || name === "script") || (i >= argv.length && name !== "xargs")) break;
    if (name === "xargs") fromStdin = true;
    // time -o FILE writes FILE: not the plain wrapper the safe list lets through
    wrappers.push(name === "time" && argv.slice(1, i).some((a) => /^(-o|--output|-a|--append)/.test(a.value)) ? "time -o" : name);
    argv = argv.slice(i);
    if (name === "xargs" && argv.length === 0) argv = [{ value: "echo", known: true }];
  }
  return { argv, wrappers, fromStdin, assigned };
}
