/**
 * The journal tree (journal.jsonl): every row is an entry with an id and a parent; the active leaf selects
 * the path. Moving the leaf appends a {"leaf": id} record, so history is never deleted: a later undo,
 * redo or fork only moves the leaf, and new entries hang under it.
 */
import fs from "node:fs";
import type { Row } from "../engine/api.js";
import type { JournalEntry } from "./api.js";
import { JournalEntryUnknown } from "./errors.js";

type Line = ({ type: "entry" } & JournalEntry) | { type: "leaf"; leaf: string; at: number };

export class Journal {
  readonly entries: JournalEntry[] = [];
  private byId = new Map<string, JournalEntry>();
  leaf: string | undefined;

  /** Read a journal file; a torn last line (a crash mid-append) is skipped. */
  static load(file: string): Journal {
    const j = new Journal();
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      return j;
    }
    for (const raw of text.split("\n")) {
      if (!raw.trim()) continue;
      let l: Line;
      try {
        l = JSON.parse(raw) as Line;
      } catch {
        continue;
      }
      if (l.type === "leaf") {
        if (l.leaf === "") j.leaf = undefined;
        else if (j.byId.has(l.leaf)) j.leaf = l.leaf;
      } else if (l.type === "entry" && !j.byId.has(l.id)) {
        const { type: _t, ...e } = l;
        j.entries.push(e);
        j.byId.set(e.id, e);
        j.leaf = e.id;
      }
    }
    return j;
  }

  get(id: string): JournalEntry | undefined {
    return this.byId.get(id);
  }

  lastSeq(): number {
    return this.entries.length ? this.entries[this.entries.length - 1]!.seq : 0;
  }

  /** Add a row under the active leaf; returns the JSONL line to append. */
  add(row: Row): string {
    const e: JournalEntry = { id: `r${row.seq}`, ...(this.leaf ? { parent: this.leaf } : {}), seq: row.seq, role: row.role, turn: row.turn, step: row.step, at: row.at };
    if (this.byId.has(e.id)) return "";
    this.entries.push(e);
    this.byId.set(e.id, e);
    this.leaf = e.id;
    return `${JSON.stringify({ type: "entry", ...e })}\n`;
  }

  /** Move the active leaf ("" = before the first entry: the next entry is a new root); returns the JSONL line to append. */
  setLeaf(id: string): string {
    if (id !== "" && !this.byId.has(id)) throw JournalEntryUnknown({ id });
    this.leaf = id || undefined;
    return `${JSON.stringify({ type: "leaf", leaf: id, at: Date.now() })}\n`;
  }

  /** Entries from the root to `to` (default: the active leaf). */
  path(to = this.leaf): JournalEntry[] {
    const out: JournalEntry[] = [];
    let cur = to ? this.byId.get(to) : undefined;
    while (cur) {
      out.push(cur);
      cur = cur.parent ? this.byId.get(cur.parent) : undefined;
    }
    return out.reverse();
  }
}
