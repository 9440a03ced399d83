/**
 * The pager never shows text that is not stored: a stream that drops mid-answer leaves the screen when
 * the request is retried, and text that stays on screen after esc esc is the text the session keeps,
 * marked interrupted in the ledger and the exports. The real pager in tmux, the real Anthropic SDK
 * against the fake server.
 */
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanupSettled, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, startPty, type Pty } from "../../../test/kit/pty.js";
import { exportAtif, exportMd, indexRow, ledgerRoot, readIndex, readTurn, storedAnswer } from "../../../test/kit/stored.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

let anthropic: FakeAnthropicServer;
let sb: Sandbox | undefined;
let t: Pty | undefined;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  anthropic = await startFakeAnthropic({ chunkChars: 6 });
});
afterAll(async () => {
  await anthropic.close();
});
afterEach(async () => {
  t?.close();
  await cleanupSettled(sb);
  t = undefined;
  sb = undefined;
  anthropic.reset();
});

function open(s: Sandbox): Pty {
  const env = { ...s.env, OC_MODEL: "anthropic/claude-sonnet-4-5", ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url, OC_RETRY_BASE_MS: "10" };
  return startPty({ args: [CLI, "--dir", s.project], env, cwd: s.project, cols: 100, rows: 30 });
}

async function say(p: Pty, text: string): Promise<void> {
  p.send(text);
  await pause(120);
  p.key("Enter");
}

describe.skipIf(!hasTmux())("pager: streamed text matches what is stored", () => {
  it("a dropped stream's partial text leaves the screen when the request is retried", async () => {
    sb = makeSandbox("oc-pty-streams-");
    // the partial answer stays on screen 1.5 s before the connection drops
    anthropic.enqueue({ type: "drop", text: "ABANDONED partial words", holdMs: 1_500 }, { text: "The final answer." });
    t = open(sb);
    await t.waitFor("❯");
    await say(t, "hello there");
    await t.waitFor("ABANDONED partial words", 20_000);
    const after = await t.waitFor("The final answer.", 20_000);
    expect(after).not.toContain("ABANDONED");
    await t.waitGone("working…", 10_000);
    await pause(300);
    const all = t.history();
    expect(all).not.toContain("ABANDONED");
    expect(all).toMatch(/network: .*retry 1\/4/);
    expect(all.match(/The final answer\./g)).toHaveLength(1);
    expect(anthropic.requests).toHaveLength(2);
  });

  it("esc esc mid-answer: the text on screen is what is stored; transcript, index and exports mark the turn interrupted", async () => {
    sb = makeSandbox("oc-pty-streams-");
    anthropic.enqueue({ type: "drop", text: "KEPT partial words", holdMs: 60_000 });
    t = open(sb);
    await t.waitFor("❯");
    await say(t, "take your time");
    await t.waitFor("KEPT partial words", 20_000);
    t.key("Escape");
    await pause(100);
    t.key("Escape");
    const s = await t.waitFor("stopped (esc esc)", 10_000);
    expect(s).toContain("KEPT partial words");
    await t.waitGone("working…", 10_000);
    await say(t, "/exit");
    for (let i = 0; i < 200 && t.alive(); i++) await pause(50);
    expect(t.exitStatus()).toBe(0);
    const dirs = fs.readdirSync(ledgerRoot(sb)).filter((d) => d.startsWith("ses_"));
    expect(dirs).toHaveLength(1);
    const id = dirs[0]!;

    const turn = readTurn(sb, id, 1);
    expect(turn.indexOf("KEPT partial words")).toBeGreaterThan(turn.indexOf("take your time"));
    expect(turn.indexOf("### note · seq 3 · interrupted")).toBeGreaterThan(turn.indexOf("KEPT partial words"));
    const index = readIndex(sb, id);
    expect(index.json[0]).toMatchObject({ turn: 1, title: "take your time", reason: "aborted", interrupted: "user" });
    expect(indexRow(index.md, 1)[5]).toBe("interrupted");
    const md = await exportMd(sb, id);
    expect(md).toContain("interrupted_turns: [1]");
    const traj = await exportAtif(sb, id);
    expect(storedAnswer(traj)).toBe("KEPT partial words");
    expect(traj.extra?.incomplete_turns).toEqual([{ turn: 1, status: "interrupted", marker_step_id: 3 }]);
  });
});
