/** What a sub-agent writes belongs to its parent's user turn: /undo in the parent takes it back. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bootTests, slash, type Booted } from "./helpers.js";

let b: Booted | undefined;
const { boot } = bootTests();

describe("checkpoints: sub-agents", () => {
  it("a file a sub-agent created is removed by the parent's /undo", async () => {
    b = await boot([
      { tool_calls: [{ name: "agent", input: { subagent_type: "general-purpose", description: "make it", prompt: "make sub.txt" } }] },
      { tool_calls: [{ name: "write", input: { file_path: "sub.txt", content: "from the child\n" } }] },
      { text: "child done" },
      { text: "parent done" },
    ]);
    const { engine, sb } = b;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
    await engine.prompt(s, "delegate");
    const file = path.join(sb.project, "sub.txt");
    expect(fs.readFileSync(file, "utf8")).toBe("from the child\n");
    expect(await slash(b, s, "undo")).toBe('undid turn 1 ("delegate"): removed sub.txt');
    expect(fs.existsSync(file)).toBe(false);
  });
});
