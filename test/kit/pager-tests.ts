/**
 * The set-up and teardown every pager (tmux PTY) test file had written out: a temp HOME and project, the
 * terminal, the fake Anthropic server. Call once at the top of a test file; the functions it returns are
 * the kit's own (same names, same arguments) and remember what they made, so after each test the
 * terminals are closed, then the fakes, then the sandboxes are removed once the pager has let go of them.
 *
 *   const { makeSandbox, openPager } = pagerTests();
 *   it("…", async () => { const sb = makeSandbox("oc-x-"); const t = openPager(sb, { OC_MODEL: "scripted/echo" }); … });
 *
 * A file sharing one fake across its tests takes it from fakeAnthropicForFile() (file-fixtures.ts), called
 * first: after-each hooks run last-registered first, so the pagers are gone before the fake is reset.
 */
import { afterEachTest, perTest, type PerTest } from "./file-fixtures.js";
import { openPager, openPagerOnFake, startPty, type Pty } from "./pty.js";

export interface PagerTests extends PerTest {
  openPager: typeof openPager;
  openPagerOnFake: typeof openPagerOnFake;
  startPty: typeof startPty;
  /** a terminal made some other way, closed with the rest */
  track(p: Pty): Pty;
}

export function pagerTests(): PagerTests {
  const made = perTest();
  // asked for after perTest's: the terminals close before the fakes and sandboxes go
  const track = afterEachTest<Pty>((t) => t.close());
  return {
    ...made,
    openPager: (...a) => track(openPager(...a)),
    openPagerOnFake: (...a) => track(openPagerOnFake(...a)),
    startPty: (o) => track(startPty(o)),
    track,
  };
}
