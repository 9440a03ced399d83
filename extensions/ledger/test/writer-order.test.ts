/** The ledger writer keeps files in order: a newer file never reaches the disk before an older waiting one. */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LedgerWriter } from "../writer.js";

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("ledger writer ordering", () => {
  it("holds a new file back while an older dirty file waits out its rewrite interval", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-writer-"));
    const w = new LedgerWriter(quiet, 300);
    const a = path.join(dir, "turn-0001.md");
    const b = path.join(dir, "turn-0002.md");
    let aText = "rows 1-2\n";
    w.put(a, () => aText);
    await w.settle(); // a was just written: its next rewrite is due in 300 ms
    aText = "rows 1-3\n"; // the turn's last row
    w.put(a, () => aText);
    w.put(b, () => "rows 4-5\n"); // the next turn starts
    await sleep(100);
    // b must not be on disk while a's last row is not (a crash now would leave a gap between the files)
    expect(fs.readFileSync(a, "utf8")).toBe("rows 1-2\n");
    expect(fs.existsSync(b)).toBe(false);
    await sleep(350);
    expect(fs.readFileSync(a, "utf8")).toBe("rows 1-3\n");
    expect(fs.readFileSync(b, "utf8")).toBe("rows 4-5\n");
  });
});
