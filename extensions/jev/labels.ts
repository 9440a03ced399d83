/**
 * `oceancode jev labels`: the decisions of every session under the ledger root, as label rows for
 * bench/jev (the grammar in bench/jev/README.md). Merged into an existing --out file without duplicates
 * by point and state hash (rows already there are kept as they are).
 *   default       decisions a person labelled (label rows joined by point + state hash), source "person"
 *   --unlabelled  decisions nobody labelled, "label": null, source "unlabelled" (optionally one --point)
 *   --implicit    the person labels, plus what the decision log itself shows happened next: a triage
 *                 re-run that passed labels its decision flaky, one that failed again real_failure
 *                 (source "implicit-rerun"); and from the session's rows (implicit.ts) the first skill
 *                 loaded after a skills pick, a tool fetched with tool_search after a tier pick, and
 *                 whether a supervisor continuation was followed by an edit.
 * Only decision rows whose answers is an object are decisions (a skip or failure has a string).
 */
import fs from "node:fs";
import path from "node:path";
import { DECISIONS_FILE } from "./log.js";
import { implicitLabel, sessionCalls } from "./implicit.js";

export interface LabelExport {
  point: string;
  state_hash: string;
  session: string;
  model: string;
  verdict: string;
  state: unknown;
  answers: unknown;
  label: string | null;
  source: string;
  [k: string]: unknown;
}

interface RawRow {
  type?: string;
  point?: string;
  state_hash?: string;
  session?: string;
  model?: string;
  verdict?: string;
  at?: number;
  outcome?: string;
  state?: unknown;
  answers?: unknown;
  label?: string;
}

/** Every jev-decisions.jsonl under the root (sessions and their sub-agents). */
export function decisionFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isFile() && e.name === DECISIONS_FILE) out.push(path.join(d, e.name));
      else if (e.isDirectory() && depth < 4 && e.name !== "transcript" && e.name !== "jev-states") walk(path.join(d, e.name), depth + 1);
    }
  };
  walk(root, 0);
  return out.sort();
}

function readRows(file: string): RawRow[] {
  const rows: RawRow[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      rows.push(JSON.parse(line) as RawRow);
    } catch {
      // a torn last line: skipped
    }
  }
  return rows;
}

/** The full state of a row whose state is an excerpt (jev-states/<hash>.json beside the log). */
function fullState(file: string, r: RawRow): unknown {
  const s = r.state as { full?: unknown; excerpt?: unknown } | undefined;
  if (s && typeof s.full === "string" && typeof s.excerpt === "string") {
    try {
      return JSON.parse(fs.readFileSync(path.join(path.dirname(file), s.full), "utf8"));
    } catch {
      return r.state;
    }
  }
  return r.state;
}

export function collectLabels(root: string, opts: { unlabelled?: boolean; implicit?: boolean; point?: string }): LabelExport[] {
  const out: LabelExport[] = [];
  for (const file of decisionFiles(root)) {
    const rows = readRows(file);
    const labels = new Map<string, string>();
    for (const r of rows) if (r.type === "label" && r.point && r.state_hash && r.label) labels.set(`${r.point}\0${r.state_hash}`, r.label);
    const reruns = new Map<string, string>();
    for (const r of rows) if (r.type === "decision" && r.point === "triage" && typeof r.answers === "string" && /^rerun exit=(\d+)/.test(r.answers)) reruns.set(r.state_hash ?? "", r.answers);
    const seen = new Set<string>();
    let calls: ReturnType<typeof sessionCalls> | undefined;
    for (const r of rows) {
      if (r.type !== "decision" || !r.point || !r.state_hash || !r.answers || typeof r.answers !== "object") continue;
      const key = `${r.point}\0${r.state_hash}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const base = { point: r.point, state_hash: r.state_hash, session: r.session ?? "", model: r.model ?? "", verdict: r.verdict ?? "", state: fullState(file, r), answers: r.answers };
      const person = labels.get(key);
      if (opts.unlabelled) {
        if (person === undefined && (!opts.point || opts.point === r.point)) out.push({ ...base, label: null, source: "unlabelled" });
        continue;
      }
      if (person !== undefined) out.push({ ...base, label: person, source: "person" });
      else if (opts.implicit && r.point === "triage" && reruns.has(r.state_hash)) {
        out.push({ ...base, label: /^rerun exit=0\b/.test(reruns.get(r.state_hash)!) ? "flaky" : "real_failure", source: "implicit-rerun" });
      } else if (opts.implicit) {
        calls ??= sessionCalls(path.dirname(file));
        const got = implicitLabel(r.point, r.verdict ?? "", r.at ?? 0, calls);
        if (got) out.push({ ...base, ...got });
      }
    }
  }
  return out;
}

/** Merge into an existing labels file: keep its rows, add those whose point + state hash it lacks. */
export function mergeLabels(existing: unknown[], fresh: LabelExport[]): { rows: unknown[]; added: number } {
  const have = new Set(existing.map((r) => `${(r as LabelExport).point}\0${(r as LabelExport).state_hash}`));
  const rows = [...existing];
  let added = 0;
  for (const r of fresh) {
    const k = `${r.point}\0${r.state_hash}`;
    if (have.has(k)) continue;
    have.add(k);
    rows.push(r);
    added += 1;
  }
  return { rows, added };
}
