/**
 * The pager's modes in a real tmux PTY against the fake Anthropic server, with `edit * ask` in the
 * project's config so the mode decides: shift+tab (ESC [ Z) cycles default → auto → plan → default, each
 * shown on the status line and effective (auto writes the file without a prompt, plan refuses it);
 * ctrl+o, /auto and /always-approve toggle; signed managed requirements that disable bypassPermissions
 * lock always-approve (the cycle skips it and says so, ctrl+o and /always-approve refuse).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasTmux, pause, typeLine, type Pty } from "../../../test/kit/pty.js";
import { fakeAnthropicForFile } from "../../../test/kit/file-fixtures.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";
import { signRequirements } from "../../../test/kit/requirements.js";

const fake = fakeAnthropicForFile();
const { makeSandbox, openPagerOnFake } = pagerTests();
let t: Pty | undefined;

/** The status line's row (the one above the model row). */
function statusLine(screen: string): string {
  const rows = screen.split("\n");
  const i = rows.findIndex((r) => r.includes("anthropic/claude-haiku-4-5 · context"));
  return rows[i - 1] ?? "";
}

async function shiftTab(p: Pty, expectText: string | RegExp): Promise<string> {
  p.key("BTab");
  return p.waitFor(expectText, 10_000);
}

/** Ask the model (the fake) to write `file` and wait for the turn to end. */
async function askWrite(p: Pty, file: string, answer: string): Promise<string> {
  fake.enqueue({ toolCalls: [{ name: "write", input: { file_path: file, content: "written\n" } }] }, { text: answer });
  await typeLine(p, `write ${file}`);
  await p.waitFor(answer, 20_000, { inHistory: true });
  return p.waitGone("working…", 20_000);
}

describe.skipIf(!hasTmux())("pager modes", () => {
  it("shift+tab cycles default → auto → plan → default, shown and effective; ctrl+o, /auto and /always-approve toggle", async () => {
    const sb = makeSandbox("oc-pty-modes-");
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["edit * ask"] }));
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("? for keys");

    // auto: the write runs without a prompt
    let s = await shiftTab(t, "auto: edits run without asking");
    expect(statusLine(s)).toContain("⏵⏵ auto: edits run without asking");
    s = await askWrite(t, "auto.txt", "wrote it");
    expect(s).not.toContain("Allow write?");
    expect(fs.readFileSync(path.join(sb.project, "auto.txt"), "utf8")).toBe("written\n");

    // plan: the write is refused, the file never made
    s = await shiftTab(t, "plan mode: editing is off");
    expect(statusLine(s)).toContain("plan mode");
    await askWrite(t, "plan.txt", "could not write");
    expect(fs.existsSync(path.join(sb.project, "plan.txt"))).toBe(false);
    const planReq = fake.requests[fake.requests.length - 1]!;
    expect(JSON.stringify(planReq.body.messages)).toMatch(/plan mode|denied/i);

    // back to default: the write asks again
    s = await shiftTab(t, "default mode");
    expect(statusLine(s)).not.toMatch(/auto:|plan mode|always-approve/);
    fake.enqueue({ toolCalls: [{ name: "write", input: { file_path: "asked.txt", content: "x\n" } }] }, { text: "asked done" });
    await typeLine(t, "write asked.txt");
    await t.waitFor("Allow write?", 20_000);
    t.send("n");
    await t.waitFor("asked done", 20_000, { inHistory: true });
    await t.waitGone("working…");
    expect(fs.existsSync(path.join(sb.project, "asked.txt"))).toBe(false);

    // ctrl+o: always-approve on, then off
    t.key("C-o");
    s = await t.waitFor("⏵⏵⏵ always-approve");
    s = await askWrite(t, "always.txt", "always done");
    expect(s).not.toContain("Allow write?");
    expect(fs.existsSync(path.join(sb.project, "always.txt"))).toBe(true);
    t.key("C-o");
    await t.waitGone("⏵⏵⏵ always-approve");

    // the slash commands: /auto on and off, /always-approve on
    await typeLine(t, "/auto");
    s = await t.waitFor("⏵⏵ auto");
    await typeLine(t, "/auto");
    await t.waitGone("⏵⏵ auto");
    await typeLine(t, "/always-approve");
    await t.waitFor("⏵⏵⏵ always-approve");
    // modes cost no model request
    expect(fake.requests.length).toBe(8);
  });

  it("managed requirements lock always-approve: the cycle skips it and says so; ctrl+o and /always-approve refuse", async () => {
    const sb = makeSandbox("oc-pty-modes-");
    const key = signRequirements(sb, { permissions: { disableBypassPermissionsMode: true } });
    // the user asks for always-approve in the cycle: the lock still wins
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ pager: { cycle_bypass: true } }), "home");
    t = openPagerOnFake(sb, fake.url, { OC_REQUIREMENTS_PUBKEY: key });
    await t.waitFor("? for keys");
    await shiftTab(t, "auto: edits run");
    await shiftTab(t, "plan mode");
    const s = await shiftTab(t, "bypass is locked by managed settings");
    expect(statusLine(s)).not.toContain("always-approve");
    expect(s).toContain("default mode");
    t.key("C-o");
    await pause(300);
    expect(statusLine(t.screen())).toContain("bypass is locked by managed settings");
    expect(statusLine(t.screen())).not.toContain("⏵⏵⏵");
    await typeLine(t, "/always-approve");
    const r = await t.waitFor(/^bypass is locked by managed settings/m);
    expect(statusLine(r)).not.toContain("⏵⏵⏵");
    expect(fake.requests).toHaveLength(0);
  });
});
