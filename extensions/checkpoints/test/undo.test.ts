/**
 * /undo, /redo and /rewind through the real kernel, engine, tools, ledger and SQLite storage on a scripted
 * model: edited, created and (by bash) deleted files are restored, the conversation moves back (the
 * model's window and the ledger's journal leaf), and a file changed outside the agent is not overwritten.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { LedgerService } from "../../ledger/api.js";
import type { CheckpointsService } from "../api.js";
import { bootTests, readProject, slash, type Booted, type Step } from "./helpers.js";

let b: Booted | undefined;
const { boot } = bootTests();

const read = (f: string): string | undefined => readProject(b!, f);

// prompt 1: edit a.txt, create new.txt; prompt 2: rewrite new.txt; prompt 3 (after an undo): one answer
const STEPS: Step[] = [
  { tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] },
  {
    tool_calls: [
      { name: "edit", input: { file_path: "a.txt", old_string: "alpha", new_string: "ALPHA" } },
      { name: "write", input: { file_path: "new.txt", content: "fresh\n" } },
    ],
  },
  { text: "done one" },
  { tool_calls: [{ name: "write", input: { file_path: "new.txt", content: "second\n" } }] },
  { text: "done two" },
  { text: "done three" },
];

describe("checkpoints: /undo and /redo", () => {
  it("undo restores edited and created files turn by turn, redo re-applies them, and the conversation moves with them", async () => {
    b = await boot(STEPS, { "a.txt": "alpha\n" });
    const { engine, sb } = b;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
    await engine.prompt(s, "first prompt");
    await engine.prompt(s, "second prompt");
    expect(read("a.txt")).toBe("ALPHA\n");
    expect(read("new.txt")).toBe("second\n");

    expect(await slash(b, s, "undo")).toBe('undid turn 2 ("second prompt"): restored new.txt');
    expect(read("new.txt")).toBe("fresh\n");
    expect(await slash(b, s, "undo")).toBe('undid turn 1 ("first prompt"): restored a.txt, removed new.txt');
    expect(read("a.txt")).toBe("alpha\n");
    expect(read("new.txt")).toBeUndefined();
    expect(await slash(b, s, "undo")).toBe("/undo: nothing to undo");

    expect(await slash(b, s, "redo")).toBe('redid turn 1 ("first prompt"): restored a.txt, restored new.txt');
    expect(read("a.txt")).toBe("ALPHA\n");
    expect(read("new.txt")).toBe("fresh\n");
    expect(await slash(b, s, "redo")).toBe('redid turn 2 ("second prompt"): restored new.txt');
    expect(read("new.txt")).toBe("second\n");
    expect(await slash(b, s, "redo")).toBe("/redo: nothing to redo");

    // back one turn, then a new prompt: the model does not see turn 2, and nothing is left to redo
    await slash(b, s, "undo");
    const ledger = await b.kernel.service("ledger");
    await ledger.settle();
    const turn1Last = Math.max(...s.rows.filter((r) => r.turn === 1).map((r) => r.seq));
    expect(ledger.activeLeaf(s.info.id)).toBe(`r${turn1Last}`);
    await engine.prompt(s, "third prompt");
    const last = b.windows[b.windows.length - 1]!;
    expect(last.some((r) => r.role === "user" && r.text === "second prompt")).toBe(false);
    expect(last.filter((r) => r.role === "user").map((r) => (r as { text: string }).text)).toEqual(["first prompt", "third prompt"]);
    expect(await slash(b, s, "redo")).toBe("/redo: nothing to redo");
    // the journal keeps every entry; the third turn hangs under the first
    await ledger.settle();
    const path3 = ledger.activePath(s.info.id).map((e) => e.turn);
    expect(path3.includes(2)).toBe(false);
    expect(ledger.journal(s.info.id).some((e) => e.turn === 2)).toBe(true);
    // the whole history is still stored
    expect(s.rows.some((r) => r.role === "user" && r.text === "second prompt")).toBe(true);

    // a reopened session keeps turn 2 out of the window (the checkpoint state is on disk)
    const id = s.info.id;
    await engine.closeSession(s, "exit");
    const again = await engine.openSession(id);
    const cp = await b.kernel.service("checkpoints");
    expect(cp.activePath(id).map((t) => t.title)).toEqual(["first prompt", "third prompt"]);
    expect(fs.existsSync(path.join(cp.dirOf(id), "turns.jsonl"))).toBe(true);
    expect(await slash(b, again, "undo")).toBe('undid turn 3 ("third prompt"): no files changed');
    expect(await slash(b, again, "undo")).toBe('undid turn 1 ("first prompt"): restored a.txt, removed new.txt');
  });

  it("refuses to undo or redo over a file changed outside the agent, naming it; a pager's yes overwrites it", async () => {
    b = await boot(STEPS, { "a.txt": "alpha\n" });
    const { engine, sb } = b;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
    await engine.prompt(s, "first prompt");
    sb.write("new.txt", "mine\n");
    expect(await slash(b, s, "undo")).toBe("/undo refused: changed outside the agent since the checkpoint: new.txt (nothing was changed)");
    expect(read("new.txt")).toBe("mine\n");
    expect(read("a.txt")).toBe("ALPHA\n");

    // a pager asks (its picker); "no" keeps the file, "yes" goes on
    const titles: string[] = [];
    const pick = (answer: string) => async (title: string) => {
      titles.push(title);
      return answer;
    };
    expect(await slash(b, s, "undo", "", { hostKind: "pager", pick: pick("no") })).toBe("/undo cancelled: new.txt kept as they are");
    expect(titles[0]).toMatch(/CHANGED OUTSIDE THE AGENT.*new\.txt/);
    expect(read("new.txt")).toBe("mine\n");
    expect(await slash(b, s, "undo", "", { hostKind: "pager", pick: pick("yes") })).toBe('undid turn 1 ("first prompt"): restored a.txt, removed new.txt');
    expect(read("new.txt")).toBeUndefined();

    // redo over a file created outside since the undo
    sb.write("new.txt", "theirs\n");
    expect(await slash(b, s, "redo")).toMatch(/^\/redo refused: .*new\.txt/);
    expect(read("new.txt")).toBe("theirs\n");
    expect(read("a.txt")).toBe("alpha\n");
  });

  it("/rewind <n> goes back to before turn n in one move; without n it lists the turns", async () => {
    b = await boot(STEPS, { "a.txt": "alpha\n" });
    const { engine, sb } = b;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
    await engine.prompt(s, "first prompt");
    await engine.prompt(s, "second prompt");
    expect(await slash(b, s, "rewind")).toBe(["/rewind <n> goes back to before user turn n:", "  2  second prompt  (1 files)", "  1  first prompt  (2 files)"].join("\n"));
    expect(await slash(b, s, "rewind", "1")).toBe('rewound to before turn 1 ("first prompt"): restored a.txt, removed new.txt');
    expect(read("a.txt")).toBe("alpha\n");
    expect(read("new.txt")).toBeUndefined();
    expect(await slash(b, s, "redo")).toBe('redid turn 1 ("first prompt"): restored a.txt, restored new.txt');
  });
});
