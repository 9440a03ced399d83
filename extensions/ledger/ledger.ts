/**
 * The ledger service: per-session transcripts, index files, SESSION.md and the journal, all written by the
 * one LedgerWriter behind the step. afterStep only collects the new rows (scanning back from the end of
 * session.rows to the last row it queued: O(new rows)) and queues them.
 */
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../../kernel/api.js";
import type { Row, Session, StoredSession } from "../engine/api.js";
import type { JournalEntry, LedgerService, PastToolResult, SectionRenderer, TurnIndexEntry } from "./api.js";
import { LedgerWriter } from "./writer.js";
import { renderRow, turnHeader, renderIndex } from "./render.js";
import { SessionPage, type PageData } from "./page.js";
import { applyTurnFacts, type FactContext } from "./facts.js";
import { Journal } from "./journal.js";
import { crashMarker, hasCrashMarker } from "./turn-status.js";
import { infoRecord, readSidecar, resumeRecord, rowRecords, SIDECAR_FILE } from "./sidecar.js";
import { recoverTranscript, restoreOlderTurns } from "./resume.js";

/** the folder of a session's sub-agent (child) ledgers, inside its own */
export const SUBAGENTS_DIR = "subagents";

export const turnFileName = (turn: number): string => `turn-${String(turn).padStart(4, "0")}.md`;

interface OpenTurn {
  turn: number;
  file: string;
  /**
   * The last text queued for the file (its last row, or the whole file as found on reopening): enough to
   * tell whether it already ends with a crash marker. Rows are appended, never held: a turn of thousands
   * of steps would otherwise keep its whole transcript in memory and rewrite it on every flush.
   */
  tail: string;
}

export interface SessionLedger {
  id: string;
  dir: string;
  cwd: string;
  model: string;
  lastQueuedSeq: number;
  cur?: OpenTurn;
  turns: TurnIndexEntry[];
  turnByNum: Map<number, TurnIndexEntry>;
  journal: Journal;
  page: SessionPage;
  facts: FactContext;
  cutSeq: number;
  /** transcript files found damaged when the session was reopened (rewritten from the database) */
  damaged: Array<{ file: string; why: string }>;
  /** the info and totals last appended to rows.jsonl (an unchanged record is not appended again) */
  lastInfo?: string;
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** How a turn whose last stored row is `row` ended, when that row ends a turn: its answer, or the interrupted note. */
function endOfTurn(row: Row): "end_turn" | "aborted" | undefined {
  if (row.role === "assistant" && row.toolCalls.length === 0) return "end_turn";
  if (row.role === "note" && row.kind === "interrupted") return "aborted";
  return undefined;
}

function oneLine(text: string, max: number): string {
  const l = text.replace(/\s+/g, " ").trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
}

export class Ledger implements LedgerService {
  readonly writer: LedgerWriter;
  private sessions = new Map<string, SessionLedger>();

  constructor(
    readonly root: string,
    readonly enabled: boolean,
    private readonly log: Logger,
  ) {
    this.writer = new LedgerWriter(log, undefined, root);
  }

  /** child session id -> its parent's id: a sub-agent's folder is inside its parent's */
  private readonly parents = new Map<string, string>();

  async toolResults(sessionId: string, opts: { uptoSeq: number; limit?: number }): Promise<PastToolResult[]> {
    if (!this.enabled || opts.uptoSeq <= 0) return [];
    await this.settle();
    const side = await readSidecar(path.join(this.dirOf(sessionId), SIDECAR_FILE));
    if (!side) return [];
    const rows = [...side.rows.values()].filter((r) => r.seq <= opts.uptoSeq).sort((a, b) => a.seq - b.seq);
    const calls = new Map<string, Record<string, unknown>>();
    const out: PastToolResult[] = [];
    for (const r of rows) {
      if (r.role === "assistant") for (const c of r.toolCalls) calls.set(c.id, c.input);
      if (r.role !== "tool") continue;
      for (const res of r.results) {
        let text = res.content;
        if (res.truncated?.fullPath) {
          try {
            text = await fs.promises.readFile(res.truncated.fullPath, "utf8");
          } catch {
            // the full copy is gone: what the model saw is what there is
          }
        }
        out.push({ seq: r.seq, turn: r.turn, callId: res.callId, tool: res.name, input: calls.get(res.callId) ?? {}, isError: res.isError, text });
      }
    }
    const limit = Math.max(0, opts.limit ?? 255);
    return out.length > limit ? out.slice(out.length - limit) : out;
  }

  writeError(): string | undefined {
    return this.writer.firstError;
  }

  dirOf(sessionId: string): string {
    const parent = this.parents.get(sessionId);
    return parent ? path.join(this.dirOf(parent), SUBAGENTS_DIR, sessionId) : path.join(this.root, sessionId);
  }

  /** A child (sub-agent) session's ledger lives in `<parent folder>/subagents/<child id>/`. */
  nest(sessionId: string, parentId: string): void {
    if (!this.sessions.has(sessionId)) this.parents.set(sessionId, parentId);
  }

  /** transcript checks of reopened sessions still running (they run beside the writer) */
  private readonly checks = new Set<Promise<void>>();

  async settle(): Promise<void> {
    while (this.checks.size) await Promise.all([...this.checks]);
    return this.writer.settle();
  }

  /**
   * Open (or load from disk) a session's ledger. `lastRowSeq` is what the database holds, for crash
   * recovery; with `dbRows` (the session's rows from the database) the newest transcript is also checked.
   */
  open(id: string, cwd: string, model: string, lastRowSeq?: number, dbRows?: readonly Row[]): SessionLedger {
    const hit = this.sessions.get(id);
    if (hit) {
      // opened earlier only to read its journal: now we know where it runs
      if (!hit.cwd && cwd) hit.cwd = hit.facts.cwd = cwd;
      if (!hit.model && model) hit.model = hit.facts.model = model;
      return hit;
    }
    const dir = this.dirOf(id);
    const index = readJson<{ turns: TurnIndexEntry[]; cutSeq?: number }>(path.join(dir, "index.json"));
    const pageData = readJson<PageData>(path.join(dir, "page.json"));
    const turns = index?.turns ?? [];
    const st: SessionLedger = {
      id,
      dir,
      cwd,
      model,
      lastQueuedSeq: 0,
      turns,
      turnByNum: new Map(turns.map((t) => [t.turn, t])),
      journal: Journal.load(path.join(dir, "journal.jsonl")),
      page: pageData ? new SessionPage(pageData) : SessionPage.empty(id),
      facts: { cwd, model, files: new Map() },
      cutSeq: index?.cutSeq ?? 0,
      damaged: [],
    };
    for (const l of st.page.data.sections["Files touched"] ?? []) {
      const m = /^`(.+)` — ([a-z, ]+) \(t\d+\)$/.exec(l.text);
      if (m) st.facts.files.set(m[1]!, new Set(m[2]!.split(", ")));
    }
    recoverTranscript(this.writer, st, lastRowSeq, dbRows);
    this.sessions.set(id, st);
    return st;
  }

  /**
   * A session reopened from the database: pick up the transcripts where they stopped, mark rows the
   * database never committed as dropped in rows.jsonl, write what the transcripts missed, and (behind the
   * step) check the older transcript files, rewriting damaged or missing ones from the database.
   */
  resume(session: Session): SessionLedger {
    const rows = session.rows;
    const last = rows[rows.length - 1]?.seq ?? 0;
    const st = this.open(session.info.id, session.info.cwd, session.info.model, last, rows);
    const sidecar = path.join(st.dir, SIDECAR_FILE);
    // a session from before rows.jsonl existed gets every row once, so a later repair is exact
    const backfill = rows.length > 0 && !fs.existsSync(sidecar);
    this.writer.append(sidecar, resumeRecord(last));
    this.noteInfo(session);
    if (backfill) this.writer.append(sidecar, rowRecords(rows, session.totals));
    // the turns collect() will not write again: all their rows are queued already, and not the open turn
    const settled = { upto: st.lastQueuedSeq, openTurn: st.cur?.turn };
    this.collect(session); // rows the database holds but the transcript missed
    const check = restoreOlderTurns(this, st, rows, settled, this.log).finally(() => this.checks.delete(check));
    this.checks.add(check);
    return st;
  }

  /**
   * Append the session's info and totals to rows.jsonl (opened, turn ended, closed). An unchanged record is
   * skipped unless `always` (at close: its time is the session's last update, as the database records it).
   */
  noteInfo(session: Session, always = false): void {
    const st = this.open(session.info.id, session.info.cwd, session.info.model);
    const key = JSON.stringify([session.info, session.totals]);
    if (st.lastInfo === key && !always) return;
    st.lastInfo = key;
    this.writer.append(path.join(st.dir, SIDECAR_FILE), infoRecord(session));
  }

  /** Queue every row appended since the last call (scans back only over the new rows). */
  collect(session: Session): void {
    const st = this.open(session.info.id, session.info.cwd, session.info.model);
    const rows = session.rows;
    let i = rows.length;
    while (i > 0 && rows[i - 1]!.seq > st.lastQueuedSeq) i--;
    if (i === rows.length) return;
    const fresh = rows.slice(i);
    st.lastQueuedSeq = fresh[fresh.length - 1]!.seq;
    const jfile = path.join(st.dir, "journal.jsonl");
    let jtext = "";
    for (const r of fresh) jtext += st.journal.add(r);
    if (jtext) this.writer.append(jfile, jtext);
    this.writer.append(path.join(st.dir, SIDECAR_FILE), rowRecords(fresh, session.totals));
    this.writer.job(async () => {
      // a truncated result is written as the model saw it plus its spill file's path: stored once (render.ts)
      for (const r of fresh) this.appendRow(st, r);
      // facts are taken as rows arrive (upserts are keyed, so the turn-end pass repeats them harmlessly):
      // rows past the tideline may leave memory before their turn ends
      let from = 0;
      for (let i = 1; i <= fresh.length; i++) {
        if (i === fresh.length || fresh[i]!.turn !== fresh[from]!.turn) {
          applyTurnFacts(st.page, fresh.slice(from, i), fresh[from]!.turn, st.facts);
          from = i;
        }
      }
    });
  }

  private appendRow(st: SessionLedger, row: Row): void {
    if (!st.cur || st.cur.turn !== row.turn) {
      const file = path.join(st.dir, "transcript", turnFileName(row.turn));
      const header = turnHeader(row.turn, st.id, row.at);
      st.cur = { turn: row.turn, file, tail: header };
      this.writer.put(file, () => header);
    }
    const text = renderRow(row);
    st.cur.tail = text;
    this.writer.append(st.cur.file, text);
    let e = st.turnByNum.get(row.turn);
    if (!e) {
      e = { turn: row.turn, file: `transcript/${turnFileName(row.turn)}`, firstSeq: row.seq, lastSeq: row.seq, steps: 0, title: "", startedAt: row.at, pastTideline: false };
      st.turns.push(e);
      st.turnByNum.set(row.turn, e);
    }
    e.lastSeq = Math.max(e.lastSeq, row.seq);
    e.steps = Math.max(e.steps, row.step);
    if (!e.title && (row.role === "user" || row.role === "note")) e.title = oneLine(row.text, 80);
  }

  /** A turn ended: its remaining rows, the index files and the page's mechanical facts. */
  turnEnded(session: Session, turn: number, reason: string, turnRows: Row[], stoppedBy?: string): void {
    this.collect(session);
    const st = this.open(session.info.id, session.info.cwd, session.info.model);
    let rows = turnRows;
    if (rows.length === 0) {
      rows = [];
      for (let i = session.rows.length - 1; i >= 0 && session.rows[i]!.turn >= turn; i--) if (session.rows[i]!.turn === turn) rows.unshift(session.rows[i]!);
    }
    st.model = session.info.model;
    st.facts.model = session.info.model;
    this.noteInfo(session);
    this.writer.job(() => {
      const e = st.turnByNum.get(turn);
      if (e) {
        e.endedAt = Date.now();
        e.reason = reason;
        if (stoppedBy) e.stoppedBy = stoppedBy;
        else delete e.stoppedBy;
        if (reason === "aborted") e.interrupted = "user";
        else delete e.interrupted;
        if (e.lastSeq <= st.cutSeq) e.pastTideline = true;
      }
      applyTurnFacts(st.page, rows, turn, st.facts);
      this.putIndex(st);
      this.putPage(st);
    });
  }

  /**
   * A reopened session whose last turn never ended (the process died mid-turn): index that turn from its
   * rows (real steps, title, start time), mark it crashed, and put a marker where its transcript stops.
   * Earlier turns the index missed get their figures from their rows too. Runs after collect() has
   * written the rows the transcript missed; O(rows of the unfinished turns).
   */
  closeCrashed(session: Session): void {
    const st = this.sessions.get(session.info.id);
    const rows = session.rows;
    const last = rows[rows.length - 1];
    if (!st || !last) return;
    const open = st.turns.filter((t) => t.endedAt === undefined).map((t) => t.turn);
    if (!open.includes(last.turn)) open.push(last.turn);
    const from = Math.min(...open);
    const byTurn = new Map<number, Row[]>();
    for (let i = rows.length - 1; i >= 0 && rows[i]!.turn >= from; i--) {
      const r = rows[i]!;
      if (open.includes(r.turn)) (byTurn.get(r.turn) ?? byTurn.set(r.turn, []).get(r.turn)!).unshift(r);
    }
    this.writer.job(() => {
      let changed = false;
      for (const [turn, turnRows] of byTurn) {
        const e = st.turnByNum.get(turn);
        if (!e || e.endedAt !== undefined) continue;
        const title = turnRows.find((r) => r.role === "user" || r.role === "note");
        e.firstSeq = turnRows[0]!.seq;
        e.lastSeq = Math.max(e.lastSeq, turnRows[turnRows.length - 1]!.seq);
        e.steps = turnRows.reduce((n, r) => Math.max(n, r.step), 0);
        if (title && (title.role === "user" || title.role === "note")) e.title = oneLine(title.text, 80);
        e.startedAt = turnRows[0]!.at;
        e.endedAt = turnRows[turnRows.length - 1]!.at;
        changed = true;
        if (turn !== last.turn) continue; // it ended (a later turn began); only its index line was lost
        applyTurnFacts(st.page, turnRows, turn, st.facts);
        // its stored rows end the turn (an answer with no tool call, or the interrupted note): it finished and
        // only its end was not recorded (a full disk took the index write); never called a crash
        const end = endOfTurn(last);
        if (end) {
          e.reason = end;
          if (end === "aborted") e.interrupted = "user";
          continue;
        }
        e.reason = "crashed";
        e.interrupted = "crash";
        const cur = st.cur;
        if (cur && cur.turn === turn && !hasCrashMarker(cur.tail, last.seq)) {
          cur.tail = crashMarker(last.seq, Date.now());
          this.writer.append(cur.file, cur.tail);
        }
      }
      if (!changed) return;
      this.putIndex(st);
      this.putPage(st);
    });
  }

  markPastTideline(sessionId: string, seq: number): void {
    const st = this.sessions.get(sessionId);
    if (!st || seq <= st.cutSeq) return;
    st.cutSeq = seq;
    this.writer.job(() => {
      // a turn is merged only when every row of it is past the tideline (and it has ended)
      for (const t of st.turns) if (!t.pastTideline && t.endedAt !== undefined && t.lastSeq <= seq) t.pastTideline = true;
      this.putIndex(st);
    });
  }

  putIndex(st: SessionLedger): void {
    this.writer.put(path.join(st.dir, "index.json"), () => `${JSON.stringify({ session: st.id, cutSeq: st.cutSeq, turns: st.turns }, null, 2)}\n`);
    this.writer.put(path.join(st.dir, "index.md"), () => renderIndex(st));
  }

  putPage(st: SessionLedger): void {
    this.writer.put(path.join(st.dir, "page.json"), () => JSON.stringify(st.page.data));
    this.writer.put(path.join(st.dir, "SESSION.md"), () => st.page.render(this.extraSections(st.id)));
  }

  private readonly sections: Array<{ title: string; render: SectionRenderer }> = [];
  registerSection(title: string, render: SectionRenderer): void {
    this.sections.push({ title, render });
  }
  /** the contributed sections' lines for a session, rendered now (a renderer that throws is left out) */
  private extraSections(sessionId: string): Array<{ title: string; lines: readonly string[] }> {
    const out: Array<{ title: string; lines: readonly string[] }> = [];
    for (const s of this.sections) {
      try {
        const lines = s.render(sessionId);
        if (lines && lines.length) out.push({ title: s.title, lines });
      } catch (e) {
        this.log.debug(`ledger: section '${s.title}' failed: ${(e as Error).message}`);
      }
    }
    return out;
  }

  journal(sessionId: string): JournalEntry[] {
    return [...this.loaded(sessionId).journal.entries];
  }
  activeLeaf(sessionId: string): string | undefined {
    return this.loaded(sessionId).journal.leaf;
  }
  activePath(sessionId: string): JournalEntry[] {
    return this.loaded(sessionId).journal.path();
  }
  setLeaf(sessionId: string, id: string): void {
    const st = this.loaded(sessionId);
    this.writer.append(path.join(st.dir, "journal.jsonl"), st.journal.setLeaf(id));
  }
  decide(sessionId: string, key: string, text: string, turn: number): void {
    const st = this.loaded(sessionId);
    st.page.decide(key, text, turn);
    this.putPage(st);
  }
  turns(sessionId: string): TurnIndexEntry[] {
    return [...this.loaded(sessionId).turns];
  }

  private loaded(sessionId: string): SessionLedger {
    return this.sessions.get(sessionId) ?? this.open(sessionId, "", "");
  }

  /** Forget an open session's state (it closed); its files stay. */
  close(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Rebuild a session's ledger from the database: transcripts, indexes and page, mechanically. */
  async rebuild(stored: StoredSession): Promise<{ dir: string; turns: number; rows: number }> {
    const id = stored.info.id;
    await this.settle();
    this.sessions.delete(id);
    const dir = this.dirOf(id);
    // transcripts, index, page and rows.jsonl are derived from the database: start them over; the journal (history) is kept
    for (const f of ["index.json", "index.md", "page.json", "SESSION.md", SIDECAR_FILE]) fs.rmSync(path.join(dir, f), { force: true });
    fs.rmSync(path.join(dir, "transcript"), { recursive: true, force: true });
    const st = this.open(id, stored.info.cwd, stored.info.model);
    const session: Session = { info: stored.info, rows: stored.rows, totals: stored.totals, nextSeq: (stored.rows.at(-1)?.seq ?? 0) + 1, lastActive: Date.now(), ext: new Map() };
    this.noteInfo(session);
    this.collect(session);
    const byTurn = new Map<number, Row[]>();
    for (const r of stored.rows) {
      const list = byTurn.get(r.turn) ?? [];
      list.push(r);
      byTurn.set(r.turn, list);
    }
    for (const [turn, rows] of byTurn) {
      this.writer.job(() => {
        const e = st.turnByNum.get(turn);
        if (e) {
          e.endedAt = rows.at(-1)!.at;
          e.reason = "rebuilt";
          if (rows.some((r) => r.role === "note" && r.kind === "interrupted")) e.interrupted = "user";
        }
        applyTurnFacts(st.page, rows, turn, st.facts);
      });
    }
    this.writer.job(() => {
      this.putIndex(st);
      this.putPage(st);
    });
    await this.settle();
    return { dir, turns: byTurn.size, rows: stored.rows.length };
  }

  /** Retention: remove a session's ledger directory. */
  removeDir(sessionId: string): void {
    this.sessions.delete(sessionId);
    const dir = this.dirOf(sessionId);
    fs.rmSync(dir, { recursive: true, force: true });
    this.writer.forgetDirs(dir);
  }
}
