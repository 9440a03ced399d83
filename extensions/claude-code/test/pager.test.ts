/**
 * `oceancode claude` in a real PTY (tmux): the pager opens on claude-code/mirror, a prompt runs through
 * the real claude CLI, and saving ~/.claude/settings.json while it is open shows the reload notice and
 * moves the session to the newly mirrored model from its next request.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasTmux, openPager, typeLine, type Pty } from "../../../test/kit/pty.js";
import { startBed, type Bed } from "./fixture.js";

let bed: Bed;
let t: Pty | undefined;

describe.skipIf(!hasTmux())("oceancode claude (the pager on the Claude Code route)", () => {
  beforeAll(async () => {
    bed = await startBed();
  }, 30_000);
  afterAll(async () => {
    t?.close();
    await bed?.close();
  });

  it("opens on claude-code/mirror, answers through claude, and follows a settings save live", async () => {
    t = openPager(bed.sb, bed.env, ["claude"], { cols: 140, rows: 40 });
    await t.waitFor("❯", 20_000);
    expect(t.screen()).toContain("claude-code/mirror");
    expect(t.screen()).toMatch(/≈\$0\.00 list · subscription/);
    await typeLine(t, "hello pager");
    await t.waitFor(/reply: .*hello pager/, 30_000, { inHistory: true });
    await t.waitGone("working…", 30_000);
    const before = bed.turns().length;
    fs.writeFileSync(path.join(bed.sb.home, ".claude", "settings.json"), JSON.stringify({ model: "haiku", effortLevel: "low" }));
    await t.waitFor("Claude Code settings reloaded — haiku · effort low · ultracode off", 10_000, { inHistory: true });
    await typeLine(t, "after the save");
    await t.waitFor(/reply: .*after the save/, 30_000, { inHistory: true });
    expect(bed.turns()[before]!.body.model).toMatch(/haiku/);
  }, 120_000);
});
