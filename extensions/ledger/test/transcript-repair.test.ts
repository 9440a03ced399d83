/**
 * Damaged transcript files are rewritten from the database when the session is reopened, and the run
 * says so: one warning per run naming the files (finding #42: it used to happen silently). Sound files,
 * including the newest one a crash left behind, are kept as they are and draw no warning.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
let id: string;
let dir: string;
const originals = new Map<string, string>();
const cli = (...args: string[]) => runCli(args, { cwd: sb.project, env: sb.env });
const turnFile = (n: number) => path.join(dir, "transcript", `turn-${String(n).padStart(4, "0")}.md`);
const warnings = (stderr: string) => stderr.split("\n").filter((l) => /damaged transcript/.test(l));

beforeEach(() => {
  sb = makeSandbox("oc-transcript-repair-");
  sb.write(
    "s.json",
    JSON.stringify({
      steps: [
        { text: "looking", tool_calls: [{ name: "bash", input: { command: "printf 'one\\ntwo\\n'" } }] },
        { text: "done: {{prompt}}" },
        { text: "again", tool_calls: [{ name: "bash", input: { command: "echo '```'; echo fenced" } }] },
        { text: "done: {{prompt}}" },
      ],
      after: { text: "after: {{prompt}}" },
    }),
  );
  const r = cli("run", "--auto", "--model", "scripted/s.json", "first");
  expect(r.code, r.stderr).toBe(0);
  id = /session: (\S+)/.exec(r.stderr)![1]!;
  for (const p of ["second", "third"]) expect(cli("run", "--auto", "--continue", p).code).toBe(0);
  dir = path.join(sb.home, ".local", "share", "oceancode", "session-ledger", id);
  originals.clear();
  for (const n of [1, 2, 3]) originals.set(turnFile(n), fs.readFileSync(turnFile(n), "utf8"));
});
afterEach(() => sb.cleanup());

describe("damaged transcripts on --continue", () => {
  it("a garbled older file and a truncated newest one are rewritten from the database, with one warning naming both", () => {
    fs.writeFileSync(turnFile(1), Buffer.from(Array.from({ length: 700 }, (_, i) => (i * 97 + 13) % 256)));
    const third = originals.get(turnFile(3))!;
    fs.writeFileSync(turnFile(3), third.slice(0, third.indexOf("after: third") + 3)); // cut inside a fenced block
    const r = cli("run", "--auto", "--continue", "fourth");
    expect(r.code, r.stderr).toBe(0);
    const w = warnings(r.stderr);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(`ledger: session ${id}: rewrote 2 damaged transcript file(s) from the database: `);
    expect(w[0]).toContain(`${turnFile(3)} (it ends inside a fenced block)`);
    expect(w[0]).toContain(`${turnFile(1)} (no \`# Turn\` header)`);
    expect(fs.readFileSync(turnFile(1), "utf8")).toBe(originals.get(turnFile(1)));
    expect(fs.readFileSync(turnFile(2), "utf8")).toBe(originals.get(turnFile(2)));
    expect(fs.readFileSync(turnFile(3), "utf8")).toBe(third);
    expect(fs.readFileSync(turnFile(4), "utf8")).toContain("after: fourth");
    // the next run finds every file sound: no warning
    const again = cli("run", "--auto", "--continue", "fifth");
    expect(again.code).toBe(0);
    expect(warnings(again.stderr)).toEqual([]);
  });

  it("a row cut out of an older file, a missing file and stray lines are named too; a fence inside a tool output is not mistaken for damage", () => {
    const second = originals.get(turnFile(2))!;
    fs.writeFileSync(turnFile(2), second.replace(/### assistant · seq \d+ · step 1[\s\S]*$/, "")); // its last row gone
    fs.rmSync(turnFile(1));
    const r = cli("run", "--auto", "--continue", "fourth");
    expect(r.code, r.stderr).toBe(0);
    const w = warnings(r.stderr);
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(`${turnFile(1)} (missing)`);
    expect(w[0]).toMatch(new RegExp(`${turnFile(2).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(rows seq \\d+–\\d+ are missing\\)`));
    for (const n of [1, 2]) expect(fs.readFileSync(turnFile(n), "utf8")).toBe(originals.get(turnFile(n)));

    fs.appendFileSync(turnFile(1), "\nsomething a person typed here\n");
    const s = cli("run", "--auto", "--continue", "fifth");
    expect(warnings(s.stderr)).toEqual([expect.stringContaining(`${turnFile(1)} (1 line(s) that are not part of a transcript)`)]);
    expect(fs.readFileSync(turnFile(1), "utf8")).toBe(originals.get(turnFile(1)));
    expect(originals.get(turnFile(2))).toContain("````"); // the tool printed ``` : the fence grew, and the check reads it right
  });
});
