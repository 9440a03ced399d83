/**
 * The published contract `oceancode/api/checkpoints` (service "checkpoints"): undo and redo with files.
 *
 * Per session, beside the ledger (`<ledger session dir>/checkpoints/`, or `<data dir>/checkpoints/<id>/`
 * when the ledger is off):
 *   objects/<sha256>   file contents, content-addressed (written once, never rewritten)
 *   turns.jsonl        append-only: a line per user turn ({"type":"turn"}), per file a step changed
 *                      ({"type":"file"}: before and after hashes, null = absent; the latest per file wins)
 *                      and per move ({"type":"active", "id": ...})
 * Nothing is deleted: undo and redo append a move; the ledger's journal gets a leaf move.
 */

/** One file a user turn changed: its content before the turn's first write and after its last (null: absent). */
export interface FileChange {
  before: string | null;
  after: string | null;
}

/** One user prompt (with the engine turns it ran, continuations included). */
export interface CheckpointTurn {
  /** 1-based, in the order the prompts ran */
  id: number;
  /** the checkpoint this turn was run on top of (0: the session's start) */
  parent: number;
  /** the engine turn numbers the prompt ran (rows with these turns belong to it) */
  turns: number[];
  firstSeq: number;
  lastSeq: number;
  /** the prompt's first line, for pickers */
  title: string;
  at: number;
  /** absolute path -> change */
  files: Record<string, FileChange>;
}

/** Why an undo/redo/rewind did not happen, or what it did. */
export type MoveResult =
  | { ok: true; from: number; to: number; restored: string[]; removed: string[] }
  | { ok: false; reason: "nothing" | "busy"; message: string }
  | { ok: false; reason: "changed"; message: string; files: string[] };

export interface MoveOptions {
  /** overwrite files changed outside the agent since the checkpoint (after a person confirmed) */
  force?: boolean;
}

export interface CheckpointsService {
  /** The session's user turns (every one ever run, all branches). */
  turns(sessionId: string): CheckpointTurn[];
  /** The turn the session stands on (0: before the first). */
  active(sessionId: string): number;
  /** The user turns from the first to the active one. */
  activePath(sessionId: string): CheckpointTurn[];
  undo(sessionId: string, opts?: MoveOptions): Promise<MoveResult>;
  redo(sessionId: string, opts?: MoveOptions): Promise<MoveResult>;
  /** Move to stand on `to` (a turn on the active path, or 0), undoing the turns after it. */
  rewind(sessionId: string, to: number, opts?: MoveOptions): Promise<MoveResult>;
  /** The session's checkpoint folder. */
  dirOf(sessionId: string): string;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    checkpoints: CheckpointsService;
  }
}
