/**
 * Skills in the pager, in a real terminal: typing `/` lists an enabled skill (with its argument hint)
 * beside the built-in commands, and submitting `/review x` sends the skill's expanded body (read back
 * from the request the fake Anthropic server recorded). An unknown `/word` is refused in the pager with a did-you-mean (nothing is sent).
 */
import { describe, expect, it } from "vitest";
import { hasTmux } from "../../../test/kit/pty.js";
import { lastUserText } from "../../../test/kit/fakes/anthropic-server.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPagerOnFake, startFakeAnthropic } = pagerTests();

describe.skipIf(!hasTmux())("pager: skills as slash commands", () => {
  it("/ lists the skill; /review x sends its expanded body; a /word nothing knows is refused with a did-you-mean, unsent", async () => {
    const fake = await startFakeAnthropic();
    fake.respond(() => ({ text: "reviewed it" }));
    const sb = makeSandbox("oc-pty-skills-");
    sb.write(".claude/skills/review/SKILL.md", "---\ndescription: review the change carefully\nargument-hint: [file]\n---\nREVIEW BODY for $ARGUMENTS\n");
    const t = openPagerOnFake(sb, fake.url);
    await t.waitFor("❯");
    t.send("/");
    await t.waitFor("/help");
    t.send("re"); // the popup shows 8 rows: narrow it to the built-ins and skills matching "re"
    await t.waitFor(/\/review\s+\[file\] review the change carefully/);
    expect(t.screen()).toContain("/resume");
    t.send("view x");
    t.key("Enter");
    await t.waitFor("reviewed it", 20_000, { inHistory: true });
    expect(fake.requests.length).toBe(1);
    const sent = lastUserText(fake.requests[0]!.body);
    expect(sent).toMatch(/^The user ran the \/review skill \(file .*SKILL\.md; base directory .*\)\. Follow these instructions:\n\nREVIEW BODY for x$/);
    // a name no command or skill has is refused here: nothing is sent; a near skill is offered
    t.send("/reveiw y");
    t.key("Enter");
    await t.waitFor(/unknown command \/reveiw: nothing was sent\. did you mean \/review/, 20_000, { inHistory: true });
    expect(fake.requests.length).toBe(1);
  }, 60_000);
});
