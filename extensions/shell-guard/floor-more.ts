/**
 * The floor beyond rm: moves (mv ~ /tmp/x moves the home away), truncation (`> file`, `: > f`,
 * truncate, cp /dev/null), rsync --delete into a folder, and extraction (tar -x -C ~, unzip -d /).
 * Whose target can be `/` or a top-level system folder is the floor; the home directory (or an
 * ancestor of it, or of the project) is a guard ask; a target that cannot be resolved asks too.
 */
import path from "node:path";
import type { Resolved } from "./words.js";
import type { Finding, FloorContext } from "./floor.js";
import { persistPath } from "./paths.js";
import { targetPlace, placeText, SYSTEM_TOP, type Place } from "./targets.js";

export type Redirect = Resolved & { append?: boolean };

const floor = (reason: string): Finding => ({ kind: "floor", reason: `${reason} (dangerous floor)` });
const ask = (reason: string): Finding => ({ kind: "guard", category: "delete", reason });

/** What a move, sync or extraction into / out of a place means. */
function judge(p: Place, word: string, what: string, askFor: Array<Place["kind"]>): Finding | undefined {
  if (p.kind === "root" || p.kind === "system") return floor(`${what} ${placeText(p, word)}`);
  if (askFor.includes(p.kind)) return ask(`${what} ${placeText(p, word)}`);
  return undefined;
}

function operandsOf(args: Resolved[], valued: string[] = []): Resolved[] {
  const out: Resolved[] = [];
  let end = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!end && a.value === "--") {
      end = true;
      continue;
    }
    if (!end && a.known && a.value.startsWith("-") && a.value !== "-") {
      if (valued.includes(a.value)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Truncation of a file: a catch-all glob of a folder, a file directly in the home, or one under a system folder. */
function truncation(t: Resolved, ctx: FloorContext, how: string): Finding | undefined {
  const p = targetPlace(t, ctx);
  if (p.kind === "unknown") return t.known ? undefined : ask(`${how} '${t.value}', which cannot be resolved before it runs`);
  if (p.wholeDir) return judge(p, t.value, `${how} every file in`, ["home", "project"]);
  if (!t.known || /[*?[{]/.test(t.value)) return undefined;
  // ~/.bashrc, /etc/cron.d/x: the persistent-write ask says more
  if (persistPath(t.value, ctx)) return undefined;
  const abs = path.resolve(ctx.cwd, t.value);
  const top = abs.split("/").filter(Boolean)[0];
  if (path.dirname(abs) === ctx.home) return ask(`${how} ${abs}, a file of the home directory`);
  // a project (and the home) may well live under a system top folder (/root when CI runs as root, /opt, /srv):
  // a file inside it is the project's, not the system's
  const inside = (dir: string): boolean => abs.startsWith(`${dir.replace(/\/+$/, "")}/`);
  if (top && SYSTEM_TOP.has(top) && !inside(ctx.home) && !inside(ctx.project) && !abs.startsWith("/dev/")) return ask(`${how} the system file ${abs}`);
  return undefined;
}

/** `> file`, `: > file` (not `>>`, not devices): each target is a truncation. */
export function redirectTruncation(redirects: Redirect[], ctx: FloorContext): Finding | undefined {
  for (const r of redirects) {
    if (r.append || (r.known && r.value.startsWith("/dev/"))) continue;
    const f = truncation(r, ctx, "truncates");
    if (f) return f;
  }
  return undefined;
}

const TAR_VALUED = ["-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from", "-b", "--blocking-factor", "-H", "--format", "-I", "--use-compress-program", "-N", "--newer", "-g", "--listed-incremental"];

/** tar's extraction folder: -C DIR / --directory DIR / -CDIR, else the working directory; undefined when not extracting. */
function tarTarget(args: Resolved[], ctx: FloorContext): { dir: Resolved; absolute: boolean } | undefined {
  const v = args.map((a) => a.value);
  // tar xzf a.tgz: the first word is the bundled operation
  const first = v[0] ?? "";
  const extract = /^[a-zA-Z]*x/.test(first) && !first.startsWith("-") ? true : v.some((a) => a === "--extract" || a === "--get" || /^-[a-zA-Z]*x/.test(a));
  if (!extract) return undefined;
  let dir: Resolved = { value: ctx.cwd, known: ctx.cwdKnown !== false };
  for (let i = 0; i < args.length; i++) {
    const a = v[i]!;
    if (a === "-C" || a === "--directory") dir = args[i + 1] ?? dir;
    else if (a.startsWith("--directory=")) dir = { value: a.slice(12), known: args[i]!.known };
    else if (/^-C./.test(a)) dir = { value: a.slice(2), known: args[i]!.known };
  }
  return { dir, absolute: v.some((a) => a === "-P" || a === "--absolute-names" || (/^-[a-zA-Z]*P/.test(a) && !a.startsWith("--"))) };
}

/**
 * cp -a evil/. ~, rsync -a evil/ ~/, cp -r evil/* ~: a folder's contents laid over the home directory
 * (or a system folder) overwrite its dotfiles, keys and startup files.
 */
function overlay(name: string, args: Resolved[], ctx: FloorContext): Finding | undefined {
  if (name !== "cp" && name !== "rsync") return undefined;
  const flat = args.map((a) => a.value);
  const rec = flat.some((a) => a === "--recursive" || a === "--archive" || (/^-[a-zA-Z]+$/.test(a) && /[rRa]/.test(a)));
  if (!rec) return undefined;
  const ops = operandsOf(args, ["-t", "--target-directory", "-S", "--suffix", "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--chown", "--chmod"]);
  const t = flat.indexOf("-t");
  const dest = t >= 0 ? args[t + 1] : ops.length > 1 ? ops.at(-1) : undefined;
  if (!dest) return undefined;
  const sources = t >= 0 ? ops : ops.slice(0, -1);
  const contents = sources.some((s) => !s.known || /(\/\.?|\/\*|^\*|^\.)$/.test(s.value) || (name === "rsync" && s.value.endsWith("/")));
  if (!contents) return undefined;
  const p = targetPlace(dest, ctx, { contents: false });
  if (p.kind === "home" && p.what.startsWith("the home directory")) return { kind: "guard", category: "persistence", reason: `${name} lays a folder's contents over ${placeText(p, dest.value)}, overwriting its dotfiles and keys` };
  if (p.kind === "root" || p.kind === "system") return floor(`${name} lays a folder's contents over ${placeText(p, dest.value)}`);
  return undefined;
}

export function moreFloor(name: string, args: Resolved[], redirects: Redirect[], ctx: FloorContext): Finding | undefined {
  const flat = args.map((a) => a.value);
  if (name === "mv") {
    const ops = operandsOf(args, ["-S", "--suffix", "-t", "--target-directory"]);
    const target = flat.some((a) => a === "-t" || a.startsWith("--target-directory"));
    // under xargs every operand may be a source (more come from stdin)
    const sources = target || ctx.fromStdin ? ops : ops.slice(0, -1);
    let worst: Finding | undefined = ctx.fromStdin ? ask("mv with sources read from stdin (xargs): cannot tell what it moves") : undefined;
    for (const s of sources) {
      const f = judge(targetPlace(s, ctx), s.value, "mv moves away", ["home", "project", "unknown"]);
      if (f?.kind === "floor") return f;
      worst ??= f;
    }
    return worst;
  }
  if (name === "truncate") {
    let worst: Finding | undefined = ctx.fromStdin ? ask("truncate with files read from stdin (xargs): cannot tell what it empties") : undefined;
    for (const t of operandsOf(args, ["-s", "--size", "-r", "--reference"])) {
      const f = truncation(t, ctx, "truncate empties");
      if (f?.kind === "floor") return f;
      worst ??= f;
    }
    return worst;
  }
  if (name === "cp" && flat.includes("/dev/null")) {
    const ops = operandsOf(args);
    const dest = ops.at(-1);
    if (dest && ops.length >= 2) return truncation(dest, ctx, "cp /dev/null empties");
    return undefined;
  }
  if (name === "cp") {
    const over = overlay(name, args, ctx);
    if (over) return over;
  }
  if (name === "rsync") {
    const deletes = flat.some((a) => a === "--del" || a.startsWith("--delete"));
    const removes = flat.includes("--remove-source-files");
    if (!deletes && !removes) return overlay(name, args, ctx);
    const ops = operandsOf(args, ["-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--chown", "--chmod", "--exclude-from", "--files-from", "-T", "--temp-dir", "--backup-dir", "--suffix", "--link-dest", "--compare-dest", "--copy-dest", "--port"]).filter((o) => !/^[^/]*[^/\\]:/.test(o.value));
    const dest = ops.length > 1 ? ops.at(-1) : undefined;
    if (deletes && dest) {
      const f = judge(targetPlace(dest, ctx, { contents: true }), dest.value, "rsync --delete empties", ["home", "project", "unknown"]);
      if (f) return f;
    }
    if (removes) {
      for (const s of ops.slice(0, -1)) {
        const f = judge(targetPlace(s, ctx), s.value, "rsync --remove-source-files deletes", ["home", "project", "unknown"]);
        if (f) return f;
      }
    }
    return overlay(name, args, ctx);
  }
  if (name === "tar" || name === "bsdtar" || name === "gtar") {
    const t = tarTarget(args, ctx);
    if (!t) return undefined;
    if (t.absolute) return ask(`${name} -P extracts to the absolute paths the archive names, anywhere`);
    const p = targetPlace(t.dir, ctx, { contents: false });
    return judge(p, t.dir.value, `${name} extracts into`, ["home", "unknown"]);
  }
  if (name === "unzip" || name === "7z" || name === "7za" || name === "cpio") {
    if (name.startsWith("7z") && flat[0] !== "x" && flat[0] !== "e") return undefined;
    if (name === "cpio" && !flat.some((a) => /^-[a-zA-Z]*i/.test(a) || a === "--extract")) return undefined;
    let dir: Resolved = { value: ctx.cwd, known: ctx.cwdKnown !== false };
    for (let i = 0; i < args.length; i++) {
      const a = flat[i]!;
      if ((name === "unzip" && a === "-d") || (name === "cpio" && (a === "-D" || a === "--directory"))) dir = args[i + 1] ?? dir;
      else if (name === "unzip" && /^-d./.test(a)) dir = { value: a.slice(2), known: args[i]!.known };
      else if (name.startsWith("7z") && /^-o./.test(a)) dir = { value: a.slice(2), known: args[i]!.known };
    }
    return judge(targetPlace(dir, ctx, { contents: false }), dir.value, `${name} extracts into`, ["home", "unknown"]);
  }
  void redirects;
  return undefined;
}
