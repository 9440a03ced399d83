/**
 * Writes that persist outside the task: into ~/.ssh, shell startup files, cron, git hooks (or
 * core.hooksPath), systemd user units and login autostart, and a recursive chmod/chown of home or of
 * an ancestor of the project. They outlive the session and run (or let someone in) later, so the
 * guard asks even when a rule allows the command.
 */
import type { Resolved } from "./words.js";
import type { Finding } from "./floor.js";
import { gitSubcommand, hasFlag, operands } from "./floor.js";
import path from "node:path";
import { persistPath, absPath, display, expandBraces, isAncestor, type PathCtx } from "./paths.js";

export interface PersistCtx extends PathCtx {
  project: string;
}

/**
 * Where cp / mv / ln / install / rsync / scp write: the destination (-t DIR, else the last operand)
 * and, as the destination may be a directory, DEST/<name of each source> (cp .bashrc ~ writes ~/.bashrc).
 */
function destination(args: string[]): string[] {
  let dest: string | undefined;
  const ops: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-t" || a === "--target-directory") dest = args[++i];
    else if (a.startsWith("--target-directory=")) dest = a.slice(19);
    else if (!a.startsWith("-")) ops.push(a);
  }
  if (dest === undefined && ops.length < 2) return ops;
  dest ??= ops.pop()!;
  return [dest, ...ops.map((s) => `${dest}/${path.basename(s)}`)];
}

/** Files a command writes, by its argv (redirections are the caller's). */
function writeTargets(name: string, args: string[]): string[] {
  switch (name) {
    case "cp": case "mv": case "ln": case "install": case "rsync": case "scp":
      return destination(args);
    case "tee": case "truncate": case "touch": case "rm": case "unlink": case "shred": case "mkdir": case "chmod": case "chown": case "chgrp": case "chattr":
      return args.filter((a) => !a.startsWith("-"));
    case "dd":
      return args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3));
    case "sed": case "perl": case "ruby":
      // -i edits in place: every operand may be written (a script operand never names ~/.bashrc)
      return args.some((a) => a === "--in-place" || a.startsWith("--in-place=") || /^-[a-zA-Z]*i/.test(a)) ? args.filter((a) => !a.startsWith("-")) : [];
    default:
      return [];
  }
}

const WRITERS = new Set(["crontab", "git", "chmod", "chown", "chgrp", "cp", "mv", "ln", "install", "rsync", "scp", "tee", "truncate", "touch", "rm", "unlink", "shred", "mkdir", "chattr", "dd", "sed", "perl", "ruby"]);
const HOOK_KEYS = new Set(["core.hookspath", "core.fsmonitor"]);
const CONFIG_READS = ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--show-origin", "--show-scope"];

function ask(reason: string): Finding {
  return { kind: "guard", category: "persistence", reason };
}

/** Does this peeled command write somewhere that persists outside the task? */
export function persistentWrite(words: Resolved[], redirects: Resolved[], ctx: PersistCtx): Finding | undefined {
  for (const r of redirects) {
    const hit = r.known ? persistPath(r.value, ctx) : undefined;
    if (hit) return ask(`writes ${hit}, which persists outside the task`);
  }
  const name = words[0]?.value ?? "";
  if (!WRITERS.has(name)) return undefined;
  const args = words.slice(1).flatMap((w) => expandBraces(w.value));
  if (name === "crontab") {
    // crontab -l only lists; a file, `-`, -e, -r or nothing (stdin) replaces the user's crontab
    const valued = ["-u"];
    const rest = args.filter((a, i) => !valued.includes(a) && !valued.includes(args[i - 1] ?? ""));
    if (rest.length === 1 && rest[0] === "-l") return undefined;
    return ask("crontab installs or edits scheduled jobs, which persist outside the task");
  }
  if (name === "git") {
    const { sub, rest } = gitSubcommand(words.slice(1));
    const r = rest.map((a) => a.value);
    if (sub === "config" && !r.some((a) => CONFIG_READS.includes(a)) && r[0] !== "get" && r[0] !== "list") {
      const key = r.find((a) => HOOK_KEYS.has(a.toLowerCase()));
      if (key) return ask(`git config ${key} makes git run other programs from now on (persists outside the task)`);
    }
    return undefined;
  }
  if ((name === "chmod" || name === "chown" || name === "chgrp") && hasFlag(args, ["R"], ["--recursive"])) {
    for (const t of operands(words.slice(1)).slice(1)) {
      if (!t.known) continue;
      const abs = absPath(t.value.replace(/\/+\.?\*?$/, "") || "/", ctx);
      if (isAncestor(abs, ctx.home, true) || isAncestor(abs, ctx.project, false)) {
        return ask(`recursive ${name} of ${display(abs, ctx)}, which holds the home directory or the project (persists outside the task)`);
      }
    }
  }
  for (const t of writeTargets(name, args)) {
    const hit = persistPath(t, ctx);
    if (hit) return ask(`${name} writes ${hit}, which persists outside the task`);
  }
  return undefined;
}
