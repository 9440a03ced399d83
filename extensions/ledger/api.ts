/**
 * The published contract `oceancode/api/ledger` (what other extensions and third parties may import).
 *
 * The session ledger's public API (service "ledger"). The ledger owns its files (one writer):
 *   <root>/<session id>/transcript/turn-0001.md   every step verbatim, tool outputs whole
 *   <root>/<session id>/index.md, index.json        turns, first/last seq, steps, titles, how each ended
 *   <root>/<session id>/SESSION.md                  the living page
 *   <root>/<session id>/journal.jsonl               the journal tree (entries with id + parent, active leaf)
 *   <root>/<session id>/subagents/<child id>/       a sub-agent (child session) opened by this process: the same files
 */

export interface JournalEntry {
  id: string;
  /** undefined for the root */
  parent?: string;
  seq: number;
  role: "user" | "assistant" | "tool" | "note";
  turn: number;
  step: number;
  at: number;
}

export interface TurnIndexEntry {
  turn: number;
  file: string;
  firstSeq: number;
  lastSeq: number;
  steps: number;
  title: string;
  startedAt: number;
  endedAt?: number;
  /**
   * How the turn ended: the engine's TurnEndReason ("end_turn", "aborted", "error", "step_cap", "max_tokens"),
   * "crashed" (the process died mid-turn; set when the session is reopened) or "rebuilt". Absent: running.
   */
  reason?: string;
  /** a step-limited turn (reason "step_cap"): which bound ended it ("budget", "time", "steps") */
  stoppedBy?: string;
  /** present when the turn did not finish: "user" (esc esc, SIGINT) or "crash" (the process died mid-turn) */
  interrupted?: "user" | "crash";
  /** every row of the turn is past the tideline (merged into SESSION.md) */
  pastTideline: boolean;
}

export interface LedgerService {
  readonly enabled: boolean;
  /** the ledger root (ledger.dir or <data dir>/session-ledger) */
  readonly root: string;
  /** <root>/<session id>; a child session this process opened: <parent's folder>/subagents/<child id> */
  dirOf(sessionId: string): string;
  /** Wait until every queued write is on disk. */
  settle(): Promise<void>;
  /**
   * The first ledger write of this process that failed (a full disk, permissions), undefined when every
   * one succeeded: a host names the transcript as the session's record only when this is undefined.
   * Optional: another ledger implementation may leave it out (a host then cannot tell).
   */
  writeError?(): string | undefined;
  /** The tideline reports a cut: every row up to `seq` left the window. */
  markPastTideline(sessionId: string, seq: number): void;
  /** Journal entries of a session (every entry ever written, all branches). */
  journal(sessionId: string): JournalEntry[];
  /** The active leaf's id. */
  activeLeaf(sessionId: string): string | undefined;
  /** Entries from the root to the active leaf. */
  activePath(sessionId: string): JournalEntry[];
  /** Move the active leaf (undo/redo/fork); "" moves it before the first entry (undoing the first turn). Never deletes an entry. */
  setLeaf(sessionId: string, id: string): void;
  /** Record a decision on SESSION.md; a decision with the same key is struck through, not deleted. */
  decide(sessionId: string, key: string, text: string, turn: number): void;
  /** Turns in the session's index (as last written). */
  turns(sessionId: string): TurnIndexEntry[];
  /**
   * Contribute a section to SESSION.md (after the ledger's own): `render` gives its Markdown lines for a
   * session, or undefined to leave it out. Called each time the page is written (at a turn's end, on a
   * decision), so it shows the current state; a renderer that throws is left out. E.g. the todos extension's "Plan".
   */
  registerSection(title: string, render: SectionRenderer): void;
  /**
   * The session's tool results up to `uptoSeq` (e.g. the tideline's cut: the ones past the line), oldest
   * first, each with the call that asked for it and its text verbatim (the whole output when the model saw
   * it truncated and the full copy is still on disk). At most `limit` (default 255): the newest ones. Read
   * from rows.jsonl after the queued writes settle; [] when the ledger is off or holds none. Optional:
   * another ledger implementation may leave it out (a caller then recalls nothing).
   */
  toolResults?(sessionId: string, opts: { uptoSeq: number; limit?: number }): Promise<PastToolResult[]>;
}

/** One tool result of the ledger's record (LedgerService.toolResults). */
export interface PastToolResult {
  /** the tool row's seq */
  seq: number;
  turn: number;
  callId: string;
  tool: string;
  /** the call's input (from the assistant row that made the call), {} when unknown */
  input: Record<string, unknown>;
  isError: boolean;
  /** verbatim: the whole output when it was truncated for the model and the full copy is readable */
  text: string;
}

/** A contributed SESSION.md section's lines for a session (Markdown, as written), or undefined for none. */
export type SectionRenderer = (sessionId: string) => readonly string[] | undefined;

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    ledger: LedgerService;
  }
}
