/**
 * Rendered output in the real pager (compiled CLI in tmux, colour on, the real Anthropic SDK against the
 * fake server): a streamed markdown answer shows a heading and bold without `#`/`**`, a coloured code
 * block, a table in box characters, a quote behind a bar unlike the `> ` echo of the prompt; an edit's
 * permission prompt and its result show `-`/`+` diff rows; todo_write shows as its checklist, not JSON.
 * One pager session for all of it (each CLI start costs seconds on a busy machine).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { closePager, hasTmux, openPagerOnFake, pause, typeLine, type Pty } from "../../../test/kit/pty.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { styleAt } from "../../../test/kit/sgr.js";

const ANSWER = [
  "## Heading Two",
  "",
  "Some **bold words** and `inline code` here.",
  "",
  "> a quoted line from the model",
  "",
  "| Name | Qty |",
  "|------|----:|",
  "| apple | 3 |",
  "| pear | 12 |",
  "",
  "```ts",
  "const answer: number = 42;",
  "```",
  "",
  "The end.",
].join("\n");

let fake: FakeAnthropicServer;
let sb: Sandbox | undefined;
let t: Pty | undefined;

beforeAll(async () => {
  fake = await startFakeAnthropic({ chunkChars: 7 });
});
afterAll(async () => {
  await closePager(t, sb);
  await fake.close();
});

/** The style in effect where `text` starts on the screen. */
const style = (p: Pty, text: string) => styleAt(p.styled(), text);

describe.skipIf(!hasTmux())("pager: rendered answers, diffs and tool one-liners", () => {
  it("markdown, code colours, a table, a quote; an edit's diff in the prompt and the result; todo_write as a list", async () => {
    sb = makeSandbox("oc-pty-render-");
    sb.write("notes.txt", "alpha\nbeta gamma delta\nepsilon\n");
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["edit * ask"] }));
    t = openPagerOnFake(sb, fake.url, { NO_COLOR: "" }, );
    await t.waitFor("❯");

    // ---- a streamed markdown answer
    fake.enqueue({ text: ANSWER });
    await typeLine(t, "show me markdown");
    await t.waitFor("The end.", 20_000);
    await t.waitGone("working…", 20_000);
    const screen = t.screen();
    expect(screen).toContain("Heading Two");
    expect(screen).not.toContain("## Heading");
    expect(screen).toContain("Some bold words and inline code here.");
    expect(screen).not.toContain("**");
    expect(screen).not.toContain("```");
    // the table in box characters, the numbers right-aligned
    expect(screen).toMatch(/┌─+┬─+┐/);
    expect(screen).toMatch(/│ apple │ +3 │/);
    expect(screen).toMatch(/│ pear  │ +12 │/);
    // the quote sits behind a bar; the prompt's echo keeps its "> "
    expect(screen).toMatch(/^│ a quoted line from the model/m);
    expect(screen).toMatch(/^> show me markdown/m);
    expect(screen).not.toMatch(/^> a quoted line/m);
    // styles: the heading bold, the bold words bold, the code row coloured (keyword and number differ)
    expect(style(t, "Heading Two")).toMatchObject({ bold: true, fg: "36" });
    expect(style(t, "bold words")).toMatchObject({ bold: true });
    expect(style(t, " and inline")).toMatchObject({ bold: false });
    expect(style(t, "inline code")?.fg).toBe("94");
    const keyword = style(t, "const answer");
    const num = style(t, "42;");
    expect(keyword?.fg).toBeDefined();
    expect(num?.fg).toBeDefined();
    expect(keyword?.fg).not.toBe(num?.fg);
    expect(style(t, "a quoted line")).toMatchObject({ italic: true });
    expect(style(t, "show me markdown")).toMatchObject({ italic: false });

    // ---- an edit: read first (edit needs it), then the edit asks; the prompt shows the diff
    fake.enqueue(
      { toolCalls: [{ name: "read", input: { file_path: "notes.txt" } }] },
      { toolCalls: [{ name: "edit", input: { file_path: "notes.txt", old_string: "beta gamma delta", new_string: "beta GAMMA delta" } }] },
      { text: "Edited it." },
    );
    await typeLine(t, "change gamma");
    const prompt = await t.waitFor(/Allow edit\?[\s\S]*y once/, 20_000);
    expect(prompt).toMatch(/2 - beta gamma delta/);
    expect(prompt).toMatch(/2 \+ beta GAMMA delta/);
    // the changed word is on its own brighter background (a word-level highlight)
    expect(style(t, "GAMMA delta")).toMatchObject({ bg: "48;5;28", bold: true });
    expect(style(t, "+ beta")).toMatchObject({ bg: "48;5;22" });
    t.send("y");
    await t.waitFor("Edited it.", 20_000);
    await t.waitGone("working…", 20_000);
    const after = t.screen();
    expect(fs.readFileSync(path.join(sb.project, "notes.txt"), "utf8")).toBe("alpha\nbeta GAMMA delta\nepsilon\n");
    expect(after).toMatch(/● Read notes\.txt/);
    expect(after).toMatch(/● Edit notes\.txt \+1 −1/);
    expect(after).toMatch(/ 2 - beta gamma delta/);
    expect(after).toMatch(/ 2 \+ beta GAMMA delta/);
    expect(style(t, "- beta gamma delta")).toMatchObject({ fg: "31" }); // red
    // ctrl+r: the viewer shows the whole diff, then what the model was told
    t.key("C-r");
    const viewer = await t.waitFor(/Edit notes\.txt \+1 −1 — output 2\/2/);
    expect(viewer).toMatch(/2 \+ beta GAMMA delta[\s\S]*Edited .*notes\.txt: 1 replacement/);
    t.key("Escape");
    await t.waitGone("— output 2/2");

    // ---- todo_write: its checklist, never raw JSON
    fake.enqueue(
      {
        toolCalls: [
          {
            name: "todo_write",
            input: {
              todos: [
                { content: "Read the code", status: "completed", activeForm: "Reading the code" },
                { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
                { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
              ],
            },
          },
        ],
      },
      { text: "Planned." },
    );
    await typeLine(t, "plan it");
    await t.waitFor("Planned.", 20_000);
    await pause(100);
    const plan = await t.waitGone("working…", 20_000);
    expect(plan).toMatch(/● Update todos \(3 items\)/);
    expect(plan).toMatch(/⎿ ☑ Read the code/);
    expect(plan).toMatch(/▶ Fixing the bug/);
    expect(plan).toMatch(/☐ Run the tests/);
    expect(plan).not.toContain('"todos"');
    expect(plan).not.toContain("activeForm");
  }, 90_000);
});
