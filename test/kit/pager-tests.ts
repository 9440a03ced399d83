/**
 * The set-up and teardown every pager (tmux PTY) test file had written out: a temp HOME and project, the
 * terminal, the fake Anthropic server. Call once at the top of a test file; the functions it returns are
 * the kit's own (same names, same arguments) and remember what they made, so one afterEach closes the
 * terminals, then removes the sandboxes once the pager has let go of them, then closes the fakes.
 *
 *   const { makeSandbox, openPager } = pagerTests();
 *   it("…", async () => { const sb = makeSandbox("oc-x-"); const t = openPager(sb, { OC_MODEL: "scripted/echo" }); … });
 *
 * A file sharing one fake across its tests takes it from fakeAnthropicForFile() (file-fixtures.ts), called
 * first: after-each hooks run last-registered first, so the pagers are gone before the fake is reset.
 */
import { afterEach } from "vitest";
import { cleanupSettled, makeSandbox, type Sandbox } from "./cli.js";
import { openPager, openPagerOnFake, startPty, type Pty } from "./pty.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "./fakes/anthropic-server.js";

export interface PagerTests {
  makeSandbox: typeof makeSandbox;
  openPager: typeof openPager;
  openPagerOnFake: typeof openPagerOnFake;
  startPty: typeof startPty;
  startFakeAnthropic: typeof startFakeAnthropic;
  /** a terminal made some other way, closed with the rest */
  track(p: Pty): Pty;
}

export function pagerTests(): PagerTests {
  let ptys: Pty[] = [];
  let boxes: Sandbox[] = [];
  let fakes: FakeAnthropicServer[] = [];
  const track = (p: Pty): Pty => {
    ptys.push(p);
    return p;
  };
  afterEach(async () => {
    const [p, b, f] = [ptys, boxes, fakes];
    ptys = [];
    boxes = [];
    fakes = [];
    // the last one opened first (a second pager on the first one's project)
    for (const t of p.reverse()) t.close();
    for (const s of b) await cleanupSettled(s);
    for (const s of f) await s.close();
  });
  return {
    makeSandbox: (prefix) => {
      const s = makeSandbox(prefix);
      boxes.push(s);
      return s;
    },
    openPager: (...a) => track(openPager(...a)),
    openPagerOnFake: (...a) => track(openPagerOnFake(...a)),
    startPty: (o) => track(startPty(o)),
    startFakeAnthropic: async (o) => {
      const f = await startFakeAnthropic(o);
      fakes.push(f);
      return f;
    },
    track,
  };
}
