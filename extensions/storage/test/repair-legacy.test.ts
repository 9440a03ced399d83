/**
 * storage repair on a ledger written before rows.jsonl existed: rows come back from the transcript
 * Markdown and the journal, session info from SESSION.md, and the report says what is approximate.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { damage } from "./damage.js";

let sb: Sandbox;
let id: string;
let ledger: string;
const cli = (...args: string[]) => runCli(args, { cwd: sb.project, env: sb.env });
const steps = (atif: string) => (JSON.parse(atif) as { steps: unknown[] }).steps;

beforeEach(() => {
  sb = makeSandbox("oc-repair-legacy-");
  sb.write(
    "s.json",
    JSON.stringify({
      steps: [{ text: "checking", tool_calls: [{ name: "bash", input: { command: "echo hi; exit 2" } }] }, { text: "done: {{prompt}}" }],
      after: { text: "then {{prompt}}" },
    }),
  );
  const r = cli("run", "--auto", "--model", "scripted/s.json", "start here");
  expect(r.code).toBe(0);
  id = /session: (\S+)/.exec(r.stderr)![1]!;
  expect(cli("run", "--auto", "--continue", "and go on").code).toBe(0);
  ledger = path.join(sb.home, ".local", "share", "oceancode", "session-ledger", id);
  fs.rmSync(path.join(ledger, "rows.jsonl")); // as an older oceancode left it
});
afterEach(() => sb.cleanup());

describe("repair from transcripts alone", () => {
  it("every row comes back; what is approximate is said", () => {
    const before = cli("export", "--atif", id).stdout;
    const list = JSON.parse(cli("sessions", "--json").stdout) as Array<Record<string, unknown>>;
    damage(path.join(sb.home, ".local", "share", "oceancode", "oceancode.db"), "header");
    const r = cli("storage", "repair");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  ${id}  from ledger: 2 turn(s), 6 row(s), 0 event(s)`);
    expect(r.stdout).toContain("    - 6 row(s) read from transcript Markdown (not in rows.jsonl): a text's trailing newline is not kept there");
    expect(r.stdout).toContain("    - session info from SESSION.md and the first row (no record in rows.jsonl): created time approximate; per-session overrides and parent not kept");
    expect(r.stdout).toContain("    - totals recounted from the rows: cost not kept, steps that ended without an answer not counted");
    expect(steps(cli("export", "--atif", id).stdout)).toEqual(steps(before));
    const after = JSON.parse(cli("sessions", "--json").stdout) as Array<Record<string, unknown>>;
    const keep = ({ id: i, cwd, model, title, turns, steps: s }: Record<string, unknown>) => ({ i, cwd, model, title, turns, s });
    expect(after.map(keep)).toEqual(list.map(keep));
    expect(after[0]!.createdAt as number).toBeGreaterThanOrEqual(list[0]!.createdAt as number); // the first row's time
    const more = cli("run", "--auto", "--continue", "third");
    expect(more.code).toBe(0);
    expect(more.stdout).toContain("then third");
  });

  it("the first resume after the upgrade writes every row to rows.jsonl once: a later repair is exact", () => {
    const more = cli("run", "--auto", "--continue", "third");
    expect(more.code).toBe(0);
    const sidecar = fs.readFileSync(path.join(ledger, "rows.jsonl"), "utf8");
    expect(sidecar.match(/"t":"row"/g)!.length).toBeGreaterThanOrEqual(8); // 6 from before the resume, 2 new
    const before = cli("export", "--atif", id).stdout;
    const list = cli("sessions", "--json").stdout.replace(/"updatedAt": \d+/, "");
    damage(path.join(sb.home, ".local", "share", "oceancode", "oceancode.db"), "header");
    const r = cli("storage", "repair");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  ${id}  from ledger: 3 turn(s), 8 row(s), 0 event(s)\n`);
    expect(r.stdout).not.toMatch(/^ {4}- /m);
    expect(cli("export", "--atif", id).stdout).toBe(before);
    expect(cli("sessions", "--json").stdout.replace(/"updatedAt": \d+/, "")).toBe(list);
  });

  it("a row lost from both the transcripts and rows.jsonl is named", () => {
    const t1 = path.join(ledger, "transcript", "turn-0001.md");
    const text = fs.readFileSync(t1, "utf8");
    fs.writeFileSync(t1, text.replace(/### tool · seq 3[\s\S]*?(?=### assistant)/, "")); // the tool row's section gone
    damage(path.join(sb.home, ".local", "share", "oceancode", "oceancode.db"), "header");
    const r = cli("storage", "repair");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  ${id}  from ledger: 2 turn(s), 5 row(s)`);
    expect(r.stdout).toContain("    - seq 3: no such row anywhere in the ledger, lost");
  });
});
