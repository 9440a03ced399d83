/**
 * Issue 28: a full disk, for real: the data directory is a small tmpfs (root mounts it; without the mount
 * this test fails, it does not skip). doctor reports the free bytes and, on the full disk, FAILs (not
 * "writable"); run -c says the disk is full (not "check the file" or "no earlier session"); no zero-byte
 * `.tmp` file is left anywhere; once space is freed the session goes on with database and ledger agreeing.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fill, tmpFiles, fullDiskFile, storedSession } from "./tmpfs.js";

const { sb, data, filler, cli } = fullDiskFile("oc-disk-full-");

sb.write("s.json", JSON.stringify({ steps: [{ text: "first answer" }, { text: "third answer" }] }));

describe("disk full", () => {
  it("doctor reports free bytes; run -c on a full disk says the disk is full; no .tmp is left; it goes on once space is freed", async () => {
    const first = await cli("run", "--model", "scripted/s.json", "first");
    expect(first.code, first.stderr).toBe(0);
    const id = /session: (ses_\w+)/.exec(first.stderr)![1]!;
    const roomy = await cli("doctor");
    expect(roomy.stdout).toMatch(new RegExp(`warn data dir ${data}: writable, only \\d+ bytes free \\(under 256 MiB\\)`)); // an 8 MiB disk is small

    fill(filler);
    const full = await cli("doctor");
    expect(full.code).toBe(1);
    expect(full.stdout).toMatch(new RegExp(`FAIL data dir ${data}: (full: no space left|writable but full: \\d+ bytes free)`));
    expect(full.stdout).not.toMatch(/ok {3}data dir .*writable/);
    const blocked = await cli("run", "-c", "more");
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain("the disk holding it is full");
    expect(blocked.stderr).toContain("free some space, then run again");
    expect(blocked.stderr).not.toMatch(/no earlier session|its transcript is in|check the file/);
    expect(tmpFiles(data)).toEqual([]);

    fs.rmSync(filler);
    const after = await cli("run", "-c", "third");
    expect(after.code, after.stderr).toBe(0);
    expect(tmpFiles(data)).toEqual([]);
    const { rows, prompts } = storedSession(data, id);
    expect(rows.map((x) => x.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(prompts[0]).toBe("first");
    expect(prompts[prompts.length - 1]).toBe("third");
    const doc = await cli("doctor", "--storage");
    expect(doc.stdout).toContain("ok   storage ledger: the database holds every row the ledger holds");
  }, 90_000);
});
