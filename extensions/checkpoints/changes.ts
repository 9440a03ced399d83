/**
 * The session's changed files (GET /session/:id/changes) and their diff against the checkpoint
 * (GET /session/:id/diff): for every file the active path's turns changed, what it was before the
 * session's first change to it (the checkpoint) against what is on disk now; or, with `turn`, that one
 * turn's before and after. Files outside the project and .env files are named, never shown; a binary
 * or very large file is named with no diff.
 */
import fs from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { isSecretEnvFile } from "../tools/kit.js";
import type { CheckpointsService, CheckpointTurn } from "./api.js";

/** a larger side is not diffed */
const MAX_DIFF_BYTES = 1_000_000;
const HASH = /^[0-9a-f]{64}$/;

export interface ChangedFile {
  /** project-relative when inside the project, else absolute */
  path: string;
  status: "added" | "modified" | "deleted" | "unchanged";
  /** the file on disk is not what the session's last write left (changed outside the agent since) */
  changedOutside: boolean;
  /** why no diff is given: outside the project, a secrets file, binary, too large */
  withheld?: "outside_project" | "secret_file" | "binary" | "too_large";
  additions?: number;
  deletions?: number;
  /** unified diff (only GET /diff) */
  diff?: string;
}

function within(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}


type Content = Buffer | null | "too_large";

function readObject(dir: string, hash: string | null): Content {
  if (hash === null || !HASH.test(hash)) return null;
  const file = path.join(dir, "objects", hash);
  try {
    if (fs.statSync(file).size > MAX_DIFF_BYTES) return "too_large";
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

function readDisk(file: string): Content {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return null;
    if (st.size > MAX_DIFF_BYTES) return "too_large";
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

/** file -> [checkpoint hash, last recorded hash] over the turns given (the first before, the last after) */
function spans(turns: CheckpointTurn[]): Map<string, { before: string | null; after: string | null }> {
  const out = new Map<string, { before: string | null; after: string | null }>();
  for (const t of turns) {
    for (const [file, c] of Object.entries(t.files)) {
      const had = out.get(file);
      out.set(file, { before: had ? had.before : c.before, after: c.after });
    }
  }
  return out;
}

const same = (a: Content, b: Content) => (a === null || b === null || a === "too_large" || b === "too_large" ? a === b : a.equals(b));

export function sessionChanges(service: CheckpointsService, sessionId: string, project: string, opts: { turn?: number; diff: boolean; only?: string }): ChangedFile[] {
  const dir = service.dirOf(sessionId);
  const path_ = service.activePath(sessionId);
  const one = opts.turn !== undefined ? path_[opts.turn - 1] : undefined;
  const turns = opts.turn !== undefined ? (one ? [one] : []) : path_;
  let root = project;
  try {
    root = fs.realpathSync.native(project);
  } catch {
    // the project as given
  }
  const out: ChangedFile[] = [];
  for (const [file, span] of spans(turns)) {
    const base = within(file, root) ? root : within(file, project) ? project : undefined;
    const inside = base !== undefined;
    const shown = base !== undefined ? path.relative(base, file).split(path.sep).join("/") : file;
    if (opts.only !== undefined && shown !== opts.only) continue;
    const before = readObject(dir, span.before);
    const recorded = readObject(dir, span.after);
    // the whole session: against the disk now; one turn: what that turn left
    const now = opts.turn === undefined ? readDisk(file) : recorded;
    const changedOutside = opts.turn === undefined && span.after !== null && !same(readDisk(file), recorded);
    const status: ChangedFile["status"] = before === null && now !== null ? "added" : before !== null && now === null ? "deleted" : same(before, now) ? "unchanged" : "modified";
    const row: ChangedFile = { path: shown, status, changedOutside };
    const withheld = !inside ? "outside_project" : isSecretEnvFile(file) ? "secret_file" : before === "too_large" || now === "too_large" ? "too_large" : (before?.includes(0) ?? false) || (now?.includes(0) ?? false) ? "binary" : undefined;
    if (withheld) row.withheld = withheld;
    else {
      const a = before === null ? "" : (before as Buffer).toString("utf8");
      const b = now === null ? "" : (now as Buffer).toString("utf8");
      const patch = createTwoFilesPatch(before === null ? "/dev/null" : `a/${shown}`, now === null ? "/dev/null" : `b/${shown}`, a, b, "", "", { context: 3 });
      let additions = 0;
      let deletions = 0;
      for (const l of patch.split("\n")) {
        if (l.startsWith("+") && !l.startsWith("+++")) additions++;
        else if (l.startsWith("-") && !l.startsWith("---")) deletions++;
      }
      row.additions = additions;
      row.deletions = deletions;
      if (opts.diff) row.diff = patch;
    }
    out.push(row);
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}
