/** The ledger journal's leaf can move before the first entry (undoing the first turn), and that survives a reload. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Journal } from "../../ledger/journal.js";
import type { Row } from "../../engine/api.js";

const row = (seq: number, turn: number): Row => ({ role: "user", text: `t${turn}`, seq, turn, step: 0, at: 0 });

describe("journal leaf before the first entry", () => {
  it('setLeaf("") empties the active path; the next entry is a new root; a reload reads the same', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-journal-"));
    const file = path.join(dir, "journal.jsonl");
    const j = new Journal();
    let text = j.add(row(1, 1)) + j.add(row(2, 1));
    text += j.setLeaf("");
    expect(j.path()).toEqual([]);
    text += j.add(row(3, 2));
    expect(j.path().map((e) => e.id)).toEqual(["r3"]);
    expect(j.entries.map((e) => e.id)).toEqual(["r1", "r2", "r3"]);
    fs.writeFileSync(file, text);
    expect(Journal.load(file).path().map((e) => e.id)).toEqual(["r3"]);
    fs.writeFileSync(file, text.split("\n").slice(0, 3).join("\n") + "\n");
    expect(Journal.load(file).leaf).toBeUndefined();
    expect(() => j.setLeaf("nope")).toThrow(/no entry/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
