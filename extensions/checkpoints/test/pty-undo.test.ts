/**
 * /undo and /redo in the real pager (compiled CLI in tmux, the scripted model): the created file goes and
 * comes back, and over a file changed outside the agent the pager asks before overwriting it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasTmux, type Pty, pause, typeLine } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPager } = pagerTests();

const type = (p: Pty, text: string): Promise<void> => typeLine(p, text, 150);

describe.skipIf(!hasTmux())("checkpoints in the pager", () => {
  it("/undo removes the file the turn created, /redo brings it back; over an outside change the pager asks", async () => {
    const sb = makeSandbox("oc-ckpt-pty-");
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
    sb.write("script.json", JSON.stringify({ steps: [{ text: "making", tool_calls: [{ name: "write", input: { file_path: "made.txt", content: "by the agent\n" } }] }, { text: "made it" }] }));
    const file = path.join(sb.project, "made.txt");
    const t = openPager(sb, { OC_MODEL: "scripted/script.json" });
    await t.waitFor("❯");
    await type(t, "make the file");
    await t.waitFor("made it");
    await t.waitGone("working…");
    expect(fs.readFileSync(file, "utf8")).toBe("by the agent\n");

    await type(t, "/undo");
    await t.waitFor('undid turn 1 ("make the file"): removed made.txt', 20_000, { inHistory: true });
    expect(fs.existsSync(file)).toBe(false);
    await type(t, "/redo");
    await t.waitFor('redid turn 1 ("make the file"): restored made.txt', 20_000, { inHistory: true });
    expect(fs.readFileSync(file, "utf8")).toBe("by the agent\n");

    fs.writeFileSync(file, "edited by hand\n");
    await type(t, "/undo");
    await t.waitFor("CHANGED OUTSIDE THE AGENT");
    expect(t.screen()).toContain("made.txt");
    t.key("Escape");
    await t.waitFor("/undo cancelled: made.txt kept as they are", 20_000, { inHistory: true });
    expect(fs.readFileSync(file, "utf8")).toBe("edited by hand\n");
    await type(t, "/undo");
    await t.waitFor("CHANGED OUTSIDE THE AGENT");
    t.key("Down");
    await pause(150);
    t.key("Enter");
    await t.waitFor('undid turn 1 ("make the file"): removed made.txt', 20_000, { inHistory: true });
    expect(fs.existsSync(file)).toBe(false);
  });
});
