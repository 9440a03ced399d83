/**
 * The ledger as a recovery source for `oceancode storage repair`: every session directory under the
 * root gives back its info, totals and rows. rows.jsonl is read first (the rows exactly as the database
 * stored them); a row it lacks (a ledger written before rows.jsonl, or a damaged line) is read from the
 * transcript Markdown, with the journal for its time and step. What cannot be given back exactly is
 * listed in the session's gaps.
 */
import fs from "node:fs";
import path from "node:path";
import type { Row, SessionInfo, SessionTotals } from "../engine/api.js";
import type { RecoveryItem, RecoverySource } from "../storage/api.js";
import type { JournalEntry } from "./api.js";
import { Journal } from "./journal.js";
import { parseTranscript } from "./parse.js";
import { lastWholeSeq, readSidecar, SIDECAR_FILE } from "./sidecar.js";
import { lastSeqIn } from "./render.js";
import { headerTime, rowsFromSections } from "./transcript-rows.js";

const ID = /^[A-Za-z0-9_.-]+$/;

export class LedgerRecovery implements RecoverySource {
  readonly name = "ledger";

  constructor(
    readonly location: string,
    private readonly settle: () => Promise<void>,
  ) {}

  async *sessions(): AsyncIterable<RecoveryItem> {
    await this.settle();
    let ids: string[];
    try {
      ids = (await fs.promises.readdir(this.location, { withFileTypes: true })).filter((d) => d.isDirectory() && ID.test(d.name)).map((d) => d.name);
    } catch {
      return;
    }
    for (const id of ids.sort()) yield await readLedgerSession(path.join(this.location, id), id);
  }

  /** a session's folder: <root>/<id>, a sub-agent's inside its parent's */
  private dir(id: string, parentId?: string): string | undefined {
    if (!ID.test(id) || (parentId !== undefined && !ID.test(parentId))) return undefined;
    return parentId ? path.join(this.location, parentId, "subagents", id) : path.join(this.location, id);
  }

  async lastSeq(id: string, parentId?: string): Promise<number | undefined> {
    const dir = this.dir(id, parentId);
    if (!dir) return undefined;
    await this.settle();
    const side = await lastWholeSeq(path.join(dir, SIDECAR_FILE));
    if (side !== undefined) return side;
    // a ledger from before rows.jsonl: the newest transcript's last row
    const files = await transcriptFiles(dir);
    const newest = files[files.length - 1];
    if (!newest) return undefined;
    try {
      return Math.max(0, lastSeqIn(await fs.promises.readFile(newest.file, "utf8")));
    } catch {
      return undefined;
    }
  }

  async session(id: string, parentId?: string): Promise<RecoveryItem | undefined> {
    const dir = this.dir(id, parentId);
    if (!dir || !fs.existsSync(dir)) return undefined;
    await this.settle();
    return readLedgerSession(dir, id);
  }

  async ids(): Promise<string[]> {
    try {
      return (await fs.promises.readdir(this.location, { withFileTypes: true })).filter((d) => d.isDirectory() && ID.test(d.name)).map((d) => d.name).sort();
    } catch {
      return [];
    }
  }
}

/** seq ranges, e.g. "4–6, 9" */
export function ranges(seqs: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < seqs.length; ) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j]! + 1) j++;
    out.push(i === j ? `${seqs[i]}` : `${seqs[i]}–${seqs[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

async function transcriptFiles(dir: string): Promise<Array<{ turn: number; file: string }>> {
  try {
    return (await fs.promises.readdir(path.join(dir, "transcript")))
      .map((f) => ({ m: /^turn-(\d{4,})\.md$/.exec(f), f }))
      .filter((x) => x.m)
      .map((x) => ({ turn: Number(x.m![1]), file: path.join(dir, "transcript", x.f) }))
      .sort((a, b) => a.turn - b.turn);
  } catch {
    return [];
  }
}

/** Fill in the rows rows.jsonl lacks from the transcripts; returns what was read and what was not. */
async function fromTranscripts(dir: string, rows: Map<number, Row>, dropped: Set<number>, hints: Map<number, JournalEntry>) {
  let read = 0;
  let whole = 0;
  const unreadable: number[] = [];
  for (const { turn, file } of await transcriptFiles(dir)) {
    let text: string;
    try {
      text = await fs.promises.readFile(file, "utf8");
    } catch {
      continue;
    }
    const p = parseTranscript(text);
    const missing = p.sections.filter((s) => !rows.has(s.seq) && !dropped.has(s.seq));
    if (!missing.length) continue;
    const got = rowsFromSections(missing, turn, hints, headerTime(text) ?? 0);
    for (const r of got.rows) rows.set(r.seq, r);
    read += got.rows.length;
    whole += got.wholeOutputs;
    unreadable.push(...got.unreadable);
  }
  return { read, whole, unreadable };
}

function pageFacts(dir: string): { cwd?: string; model?: string } {
  try {
    const page = JSON.parse(fs.readFileSync(path.join(dir, "page.json"), "utf8")) as { sections?: Record<string, Array<{ key: string; text: string }>> };
    const env = page.sections?.Environment ?? [];
    const cwd = /^working directory: (.*) \(t\d+\)$/.exec(env.find((l) => l.key === "env:cwd")?.text ?? "")?.[1];
    const model = /^model: (.*) \(t\d+\)$/.exec(env.find((l) => l.key === "env:model")?.text ?? "")?.[1];
    return { ...(cwd ? { cwd } : {}), ...(model ? { model } : {}) };
  } catch {
    return {};
  }
}

/** Rows 1..n with none missing. */
function contiguous(rows: Map<number, Row>): boolean {
  let max = 0;
  for (const seq of rows.keys()) max = Math.max(max, seq);
  return max === rows.size;
}

/** Totals from the rows alone (a ledger without rows.jsonl): no cost, and only steps that answered. */
function totalsFrom(rows: readonly Row[]): SessionTotals {
  const t: SessionTotals = { usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 0, steps: 0 };
  for (const r of rows) {
    t.turns = Math.max(t.turns, r.turn);
    if (r.role !== "assistant") continue;
    t.steps++;
    if (!r.usage) continue;
    t.usage.inputTokens += r.usage.inputTokens;
    t.usage.outputTokens += r.usage.outputTokens;
    t.usage.cacheReadTokens += r.usage.cacheReadTokens;
    t.usage.cacheWriteTokens += r.usage.cacheWriteTokens;
  }
  return t;
}

export async function readLedgerSession(dir: string, id: string): Promise<RecoveryItem> {
  const side = await readSidecar(path.join(dir, SIDECAR_FILE));
  const gaps: string[] = [];
  const rows = new Map<number, Row>(side?.rows ?? []);
  if (side?.badLines) gaps.push(`${side.badLines} unreadable line(s) of ${SIDECAR_FILE} skipped`);
  if (side?.torn) gaps.push(`${side.torn} row(s) of a step cut short at the end of ${SIDECAR_FILE} left out (no totals record after them)`);
  const journal = Journal.load(path.join(dir, "journal.jsonl"));
  const hints = new Map(journal.entries.map((e) => [e.seq, e]));
  // the transcripts are read only when rows.jsonl may lack a row the journal knows of (a whole read of
  // the Markdown costs as much again as rows.jsonl)
  const dropped = side?.dropped ?? new Set<number>();
  const complete = side !== undefined && journal.entries.length > 0 && journal.entries.every((e) => rows.has(e.seq) || dropped.has(e.seq)) && contiguous(rows);
  const md = complete ? { read: 0, whole: 0, unreadable: [] as number[] } : await fromTranscripts(dir, rows, dropped, hints);
  if (md.read) {
    gaps.push(
      `${md.read} row(s) read from transcript Markdown (not in ${SIDECAR_FILE}): a text's trailing newline is not kept there` +
        (md.whole ? `, and ${md.whole} tool row(s) get the whole output where the model saw a truncated copy` : ""),
    );
  }
  if (md.unreadable.length) gaps.push(`seq ${ranges(md.unreadable)}: the transcript section could not be read, the row is lost`);
  const list = [...rows.values()].sort((a, b) => a.seq - b.seq);
  const last = list[list.length - 1]?.seq ?? 0;
  const have = new Set(list.map((r) => r.seq));
  const absent: number[] = [];
  for (let s = 1; s < last; s++) if (!have.has(s) && !md.unreadable.includes(s)) absent.push(s);
  if (absent.length) gaps.push(`seq ${ranges(absent)}: no such row anywhere in the ledger, lost`);

  let info: SessionInfo | undefined = side?.info ? { ...side.info, id } : undefined;
  if (!info) {
    const page = pageFacts(dir);
    const lastModel = [...list].reverse().find((r) => r.role === "assistant" && r.model) as { model?: string } | undefined;
    const model = page.model ?? lastModel?.model;
    if (!page.cwd || !model || !list.length) return { ok: false, id, why: `${dir} holds no session info and ${list.length ? "no working directory or model in SESSION.md" : "no readable rows"}` };
    info = { id, cwd: page.cwd, model, createdAt: list[0]!.at, overrides: {} };
    gaps.push("session info from SESSION.md and the first row (no record in rows.jsonl): created time approximate; per-session overrides and parent not kept");
  }
  let totals = side?.totals;
  if (!totals) {
    totals = totalsFrom(list);
    gaps.push("totals recounted from the rows: cost not kept, steps that ended without an answer not counted");
  }
  const updatedAt = Math.max(side?.updatedAt ?? 0, list[list.length - 1]?.at ?? 0, info.createdAt);
  return { ok: true, session: { info, totals, rows: list, updatedAt, gaps } };
}
