/**
 * The dangerous floor (deny) and the catastrophic-delete guard (ask), on one peeled command.
 * The floor: rm -r of / or a top-level system folder through any glob, brace list or cd (targets.ts),
 * git push --force, dd of=/dev/*, recursive chmod/chown of /, mkfs*, writes to block devices; moves,
 * truncation, rsync --delete and extraction are in floor-more.ts. The guard: the same for ~, the project
 * root (or an ancestor of either), a target the parser cannot resolve (unset variable, $(...), xargs
 * input), and find / -delete.
 */
import path from "node:path";
import type { Resolved } from "./words.js";
import type { GuardCategory } from "./api.js";
import { targetPlace, placeText } from "./targets.js";
import { moreFloor, redirectTruncation } from "./floor-more.js";

export interface Finding {
  kind: "floor" | "guard";
  reason: string;
  /** why a guard finding asks */
  category?: GuardCategory;
}

export interface FloorContext {
  cwd: string;
  home: string;
  project: string;
  fromStdin: boolean;
  /** false after `cd $UNKNOWN` */
  cwdKnown?: boolean;
}

const HARMLESS_DEV = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+|full|random|urandom)$/;

/** Short flags may be combined (-rf, -Rf); long flags stand alone. */
function hasFlag(args: string[], short: string[], long: string[]): boolean {
  for (const a of args) {
    if (a === "--") break;
    if (a.startsWith("--")) {
      if (long.includes(a.split("=")[0]!)) return true;
    } else if (a.startsWith("-") && a.length > 1 && short.some((s) => a.slice(1).includes(s))) return true;
  }
  return false;
}

function operands(args: Resolved[]): Resolved[] {
  const out: Resolved[] = [];
  let end = false;
  for (const a of args) {
    if (!end && a.value === "--") {
      end = true;
      continue;
    }
    if (!end && a.known && a.value.startsWith("-") && a.value !== "-") continue;
    out.push(a);
  }
  return out;
}

function recursiveDelete(name: string, given: Resolved[], ctx: FloorContext, how: string): Finding | undefined {
  let worst: Finding | undefined = ctx.fromStdin ? { kind: "guard", category: "delete", reason: `${how} with targets read from stdin (xargs): cannot tell what it deletes` } : undefined;
  for (const t of given) {
    const k = targetPlace(t, ctx);
    if (k.kind === "root" || k.kind === "system") return { kind: "floor", reason: `${how} of ${placeText(k, t.value)} (dangerous floor)` };
    if (k.kind === "home" || k.kind === "project" || k.kind === "unknown") worst ??= { kind: "guard", category: "delete", reason: `${how} of ${placeText(k, t.value)}` };
  }
  void name;
  return worst;
}

function gitSubcommand(args: Resolved[]): { sub: string; rest: Resolved[]; configOverride: boolean } {
  let i = 0;
  let configOverride = false;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === "-C" || v === "--git-dir" || v === "--work-tree" || v === "--namespace" || v === "--exec-path") {
      i++;
      continue;
    }
    if (v === "-c" || v === "--config-env") {
      configOverride = true;
      i++;
      continue;
    }
    if (v.startsWith("-")) continue;
    break;
  }
  return { sub: args[i]?.value ?? "", rest: args.slice(i + 1), configOverride };
}

export { gitSubcommand, hasFlag, operands };

export function checkFloor(argv: Resolved[], redirectTargets: Resolved[], ctx: FloorContext): Finding | undefined {
  for (const r of redirectTargets) {
    if (r.known && r.value.startsWith("/dev/") && !HARMLESS_DEV.test(r.value)) {
      return { kind: "floor", reason: `writes to the device ${r.value} (dangerous floor)` };
    }
  }
  const cut = redirectTruncation(redirectTargets, ctx);
  if (cut) return cut;
  if (!argv.length) return undefined;
  const name = argv[0]!.value;
  const args = argv.slice(1);
  const flat = args.map((a) => a.value);
  if (!argv[0]!.known) return undefined;

  if (/^mkfs/.test(name) || name === "mke2fs" || name === "wipefs") return { kind: "floor", reason: `${name} formats a filesystem (dangerous floor)` };

  if (name === "rm" || name === "rmdir" || name === "shred" || name === "unlink") {
    const recursive = name === "rm" && hasFlag(flat, ["r", "R"], ["--recursive"]);
    if (flat.includes("--no-preserve-root")) return { kind: "floor", reason: "rm --no-preserve-root (dangerous floor)" };
    if (recursive) return recursiveDelete(name, operands(args), ctx, "recursive rm");
    // rm ~/* or rm -f /etc/*: a catch-all glob deletes every file of the folder
    if (ctx.fromStdin) return { kind: "guard", category: "delete", reason: `${name} with targets read from stdin (xargs): cannot tell what it deletes` };
    for (const t of operands(args)) {
      const k = targetPlace(t, ctx);
      if (!k.wholeDir) continue;
      if (k.kind === "root" || k.kind === "system") return { kind: "floor", reason: `${name} of every file in ${placeText(k, t.value)} (dangerous floor)` };
      if (k.kind === "home" || k.kind === "project") return { kind: "guard", category: "delete", reason: `${name} of every file in ${placeText(k, t.value)}` };
    }
    return undefined;
  }

  if (name === "find") {
    const destructive = flat.some((a) => a === "-delete" || a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir");
    const deletes = flat.includes("-delete") || /(^|\s)(-exec|-execdir|-ok|-okdir)\s+(\S*\/)?(rm|shred|unlink)\b/.test(flat.join(" "));
    if (!destructive || !deletes) return undefined;
    const roots: Resolved[] = [];
    for (const a of args) {
      if (a.known && (a.value.startsWith("-") || a.value === "(" || a.value === "!")) break;
      roots.push(a);
    }
    if (!roots.length) roots.push({ value: ".", known: true });
    const f = recursiveDelete(name, roots, ctx, "find deleting");
    // find / -delete asks (it is a guard, not the floor): it stops at the first permission error
    return f && f.kind === "floor" ? { kind: "guard", category: "delete", reason: f.reason.replace(" (dangerous floor)", "") } : f;
  }

  if (name === "git") {
    const { sub, rest } = gitSubcommand(args);
    if (sub === "push") {
      const r = rest.map((a) => a.value);
      if (hasFlag(r, ["f"], ["--force", "--force-with-lease", "--force-if-includes"]) || r.some((a) => a.startsWith("+") && a.length > 1)) {
        return { kind: "floor", reason: "git push --force rewrites shared history (dangerous floor)" };
      }
    }
    return undefined;
  }

  if (name === "dd") {
    const of = flat.find((a) => a.startsWith("of="));
    if (of && of.slice(3).startsWith("/dev/") && !HARMLESS_DEV.test(of.slice(3))) return { kind: "floor", reason: `dd ${of} writes a raw device (dangerous floor)` };
    return undefined;
  }

  if (name === "chmod" || name === "chown" || name === "chgrp") {
    if (!hasFlag(flat, ["R"], ["--recursive"])) return undefined;
    const ops = operands(args).slice(1); // the first operand is the mode / owner
    for (const t of ops) {
      const k = targetPlace(t, ctx);
      if (k.kind === "root" || k.kind === "system") return { kind: "floor", reason: `recursive ${name} of ${placeText(k, t.value)} (dangerous floor)` };
      if (k.kind === "home" && (k.wholeDir || t.value.includes("*") || t.value.includes("{"))) return { kind: "guard", category: "persistence", reason: `recursive ${name} of ${placeText(k, t.value)}` };
    }
    return undefined;
  }
  return moreFloor(name, argv.slice(1), redirectTargets, ctx);
}

/** The commands whose floor depends on their arguments (mkfs is the floor whatever follows). */
export const ARGUMENT_FLOOR_COMMANDS = ["rm", "git", "dd", "chmod", "chown", "chgrp", "mv", "rsync", "tar"];

/**
 * A command name computed at run time (`$X -rf /`, `$(echo rm) -rf /`, `` `which rm` -rf / ``):
 * check the arguments as if the name were each command the floor knows. If any of them would be the
 * floor, so is this; otherwise the finding for the worst of them (or none).
 */
export function checkComputedName(argv: Resolved[], redirectTargets: Resolved[], ctx: FloorContext): Finding | undefined {
  let worst: Finding | undefined;
  for (const name of ARGUMENT_FLOOR_COMMANDS) {
    const f = checkFloor([{ value: name, known: true }, ...argv.slice(1)], redirectTargets, ctx);
    const why = `the command name '${argv[0]?.value ?? ""}' is computed at run time, and as ${name}`;
    if (f?.kind === "floor") return { kind: "floor", reason: `${why}: ${f.reason}` };
    if (f) worst ??= { ...f, reason: `${why}: ${f.reason}` };
  }
  return worst;
}
