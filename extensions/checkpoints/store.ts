/**
 * A session's checkpoints on disk: the content-addressed object store (objects/<sha256>) and turns.jsonl
 * (append-only: a turn's latest line wins, moves are {"type":"active"} lines). See api.ts.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { CheckpointTurn } from "./api.js";

type Line =
  | ({ type: "turn" } & Omit<CheckpointTurn, "files">)
  | { type: "file"; turn: number; file: string; before: string | null; after: string | null }
  | { type: "active"; id: number; at: number };

export function sha256(buf: Buffer): string {
  return crypto.createHash("sha256").update(buf).digest("hex");
}

/** A file's content, or null when it does not exist (a directory or unreadable file: undefined, not tracked). */
export function readContent(file: string): Buffer | null | undefined {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? null : undefined;
  }
}

export class SessionStore {
  readonly turns: CheckpointTurn[] = [];
  active = 0;
  private readonly known = new Set<string>();
  private readonly objects: string;
  private readonly log: string;
  /** engine turn numbers off the active path (their rows leave the window) */
  hidden = new Set<number>();

  constructor(readonly dir: string) {
    this.objects = path.join(dir, "objects");
    this.log = path.join(dir, "turns.jsonl");
    let text = "";
    try {
      text = fs.readFileSync(this.log, "utf8");
    } catch {
      return;
    }
    for (const raw of text.split("\n")) {
      if (!raw.trim()) continue;
      let l: Line;
      try {
        l = JSON.parse(raw) as Line;
      } catch {
        continue; // a torn last line
      }
      if (l.type === "active") this.active = l.id;
      else if (l.type === "turn") {
        const { type: _t, ...t } = l;
        this.turns[t.id - 1] = { ...t, files: this.turns[t.id - 1]?.files ?? {} };
      } else if (l.type === "file") {
        const t = this.turns[l.turn - 1];
        if (t) t.files[l.file] = { before: l.before, after: l.after };
      }
    }
    this.recompute();
  }

  get(id: number): CheckpointTurn | undefined {
    return id > 0 ? this.turns[id - 1] : undefined;
  }

  /** Store a content; returns its hash (null content: null). */
  put(content: Buffer | null): string | null {
    if (content === null) return null;
    const h = sha256(content);
    if (!this.known.has(h)) {
      fs.mkdirSync(this.objects, { recursive: true });
      try {
        fs.writeFileSync(path.join(this.objects, h), content, { flag: "wx" });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      this.known.add(h);
    }
    return h;
  }

  object(h: string): Buffer {
    return fs.readFileSync(path.join(this.objects, h));
  }

  private append(line: Line): void {
    fs.mkdirSync(this.dir, { recursive: true });
    fs.appendFileSync(this.log, `${JSON.stringify(line)}\n`);
  }

  /** The turn's own fields (its files are saved one by one with saveFile). */
  saveTurn(t: CheckpointTurn): void {
    const { files: _f, ...rest } = t;
    this.append({ type: "turn", ...rest });
  }

  /** One file's change in a turn (the latest line per file wins): a step appends only what it touched. */
  saveFile(turn: number, file: string, c: { before: string | null; after: string | null }): void {
    this.append({ type: "file", turn, file, before: c.before, after: c.after });
  }

  setActive(id: number): void {
    this.active = id;
    this.append({ type: "active", id, at: Date.now() });
    this.recompute();
  }

  /** Turn ids from the first to `id`. */
  pathTo(id: number): CheckpointTurn[] {
    const out: CheckpointTurn[] = [];
    for (let t = this.get(id); t; t = this.get(t.parent)) out.unshift(t);
    return out;
  }

  recompute(): void {
    const on = new Set(this.pathTo(this.active).map((t) => t.id));
    const hidden = new Set<number>();
    for (const t of this.turns) if (t && !on.has(t.id)) for (const n of t.turns) hidden.add(n);
    this.hidden = hidden;
  }
}
