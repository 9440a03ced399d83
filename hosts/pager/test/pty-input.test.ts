/**
 * The pager's input in a real terminal (tmux) against the fake Anthropic server: type-ahead while a slow
 * turn streams, one esc stops a turn, a 200-line bracketed paste as a chip sent whole, and the lines that
 * cost no model request: `/nosuchcmd` and `/cost` refused with a did-you-mean, `#note` written to memory,
 * `!cmd` run through the bash tool; then `/usr/bin/env x` and an `@` mention go to the model as messages.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hasTmux, pause, type Pty } from "../../../test/kit/pty.js";
import type { AnthropicRequestBody } from "../../../test/kit/fakes/anthropic-server.js";
import { fakeAnthropicForFile } from "../../../test/kit/file-fixtures.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const fake = fakeAnthropicForFile();
const { makeSandbox, openPagerOnFake } = pagerTests();
let t: Pty | undefined;

/** Every text block of the request's last user message, joined (typed text and attached context). */
function lastUser(body: AnthropicRequestBody): string {
  const m = [...(body.messages ?? [])].reverse().find((x) => x.role === "user");
  if (!m) return "";
  if (typeof m.content === "string") return m.content;
  return m.content.map((b) => (b.type === "text" ? String(b.text) : `[${String(b.type)}]`)).join("\n");
}
/** The whole request as text (for "is X anywhere in it"). */
const whole = (body: AnthropicRequestBody) => JSON.stringify(body);

async function requests(n: number, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (fake.requests.length < n) {
    if (Date.now() > until) throw new Error(`expected ${n} requests, got ${fake.requests.length}\n${t?.screen()}`);
    await pause(25);
  }
}

async function line(p: Pty, text: string): Promise<void> {
  p.send(text);
  await p.waitFor(text.length > 40 ? text.slice(0, 40) : text);
  p.key("Enter");
}

describe.skipIf(!hasTmux())("pager input", () => {
  it("type-ahead: two lines typed while a slow turn streams are queued, shown, and sent in order as their own requests", async () => {
    const sb = makeSandbox("oc-pty-input-");
    fake.enqueue({ text: "a slow answer that takes its time to arrive in many pieces", streamMs: 4_000 }, { text: "second done" }, { text: "third done" });
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("❯");
    await line(t, "first");
    await requests(1);
    await line(t, "second message");
    await line(t, "third message");
    const s = await t.waitFor(/queued: second message[\s\S]*queued: third message/);
    expect(s).toContain("working");
    expect(fake.requests.length).toBe(1);
    await t.waitFor("third done", 30_000, { inHistory: true });
    await requests(3);
    expect(lastUser(fake.requests[0]!.body)).toBe("first");
    expect(lastUser(fake.requests[1]!.body)).toBe("second message");
    expect(lastUser(fake.requests[2]!.body)).toBe("third message");
    // each went after the previous answer: the third request carries the second's answer
    expect(whole(fake.requests[2]!.body)).toContain("second done");
    await t.waitGone("queued:");
  });

  it("one esc stops a running turn at once and brings a queued line back to the composer unsent", async () => {
    const sb = makeSandbox("oc-pty-input-");
    fake.enqueue({ type: "drop", text: "PARTIAL words here", holdMs: 60_000 });
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("❯");
    await line(t, "take your time");
    await t.waitFor("PARTIAL words here");
    await line(t, "not yet");
    await t.waitFor("queued: not yet");
    const pressed = Date.now();
    t.key("Escape");
    await t.waitFor(/stopped \(esc/, 5_000);
    expect(Date.now() - pressed).toBeLessThan(5_000);
    let s = await t.waitFor("❯ not yet");
    expect(s).not.toContain("queued:");
    // a second esc is harmless: the pager stays, nothing more is sent
    t.key("Escape");
    await pause(300);
    expect(t.alive()).toBe(true);
    expect(fake.requests.length).toBe(1);
    // and the pulled-back line sends when asked
    t.key("Enter");
    await requests(2);
    s = await t.waitFor("ok: not yet", 15_000, { inHistory: true });
    expect(lastUser(fake.requests[1]!.body)).toContain("not yet");
  });

  it("a 200-line bracketed paste shows as a chip and the request carries all 200 lines", async () => {
    const sb = makeSandbox("oc-pty-input-");
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("❯");
    const body = Array.from({ length: 200 }, (_, i) => `pasted line ${i + 1}`).join("\n");
    t.send("look at this: ");
    await t.waitFor("look at this:");
    t.tmux("set-buffer", "-b", "big", body);
    t.tmux("paste-buffer", "-p", "-d", "-b", "big", "-t", t.name);
    const s = await t.waitFor("[Pasted text #1 +200 lines]");
    expect(s).not.toContain("pasted line 2");
    expect(fake.requests.length).toBe(0);
    t.key("Enter");
    await requests(1);
    const sent = lastUser(fake.requests[0]!.body);
    expect(sent.startsWith("look at this: pasted line 1\n")).toBe(true);
    for (const n of [2, 100, 199, 200]) expect(sent).toContain(`pasted line ${n}`);
    expect(sent.split("\n")).toHaveLength(200);
    expect(sent).not.toContain("[Pasted text");
  });

  it("/nosuchcmd, /cost, #note and !cmd cost no request; /usr/bin/env x and an @ mention are messages", async () => {
    const sb = makeSandbox("oc-pty-input-");
    sb.write("docs/alpha-notes.txt", "ALPHA CONTENT 42\n");
    sb.write("docs/beta.txt", "beta\n");
    sb.write(".env", "API_TOKEN=canary-secret-77\n");
    t = openPagerOnFake(sb, fake.url);
    await t.waitFor("❯");

    await line(t, "/nosuchcmd now");
    await t.waitFor("unknown command /nosuchcmd: nothing was sent", 10_000, { inHistory: true });
    await line(t, "/cost");
    const cost = await t.waitFor(/unknown command \/cost: nothing was sent\. did you mean \/context/, 10_000, { inHistory: true });
    expect(cost).toBeTruthy();

    await line(t, "#remember the build uses vitest");
    await t.waitFor("Save the note to which memory file?");
    t.send("1");
    await t.waitFor("noted in", 10_000, { inHistory: true });
    expect(fs.readFileSync(path.join(sb.project, "CLAUDE.md"), "utf8")).toBe("- remember the build uses vitest\n");

    await line(t, "!echo bang-$((40+2))-out");
    // bash may ask first (the default mode): answer once
    const asked = await t.waitFor(/Allow bash\?|bang-42-out/, 20_000, { inHistory: true });
    if (/Allow bash\?/.test(asked) && !/bang-42-out/.test(asked)) t.send("y");
    await t.waitFor("goes with your next message", 20_000, { inHistory: true });
    expect(fake.requests.length).toBe(0);

    await line(t, "/usr/bin/env x");
    await requests(1);
    const first = lastUser(fake.requests[0]!.body);
    expect(first).toContain("/usr/bin/env x");
    expect(first).toContain("bang-42-out"); // the !cmd's output went with the next message
    await t.waitFor("ok:", 15_000, { inHistory: true });
    await t.waitGone("working…");

    // @: the picker completes the path; the file's content goes with the message; .env is never inlined
    t.send("explain @alph");
    await t.waitFor("@docs/alpha-notes.txt");
    t.key("Tab");
    await t.waitFor("❯ explain @docs/alpha-notes.txt");
    t.send("and @.env ");
    await pause(150);
    t.key("Enter");
    await requests(2);
    const second = fake.requests[1]!.body;
    expect(lastUser(second)).toContain("explain @docs/alpha-notes.txt and @.env");
    expect(lastUser(second)).toContain("ALPHA CONTENT 42");
    expect(whole(second)).not.toContain("canary-secret-77");
    await t.waitFor(/@\.env: [\s\S]*not attached/, 15_000, { inHistory: true });
    expect(fake.requests.length).toBe(2);
  });
});
