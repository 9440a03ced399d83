/** The set-up serve test files share (vitest hooks: kept apart from serve-helpers.ts, which a bench imports too). */
import { afterEach, beforeEach } from "vitest";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startServe, type Served } from "./serve-helpers.js";

/**
 * A serve test file's set-up: a fresh sandbox before each test and `startServe` remembering what it
 * started; after each test those servers are killed, then the sandbox is removed. `sb` always stands for
 * the running test's sandbox, so a file uses it as it would its own `let sb`.
 */
export function serveTests(prefix: string): { sb: Sandbox; startServe: typeof startServe } {
  let current: Sandbox | undefined;
  let started: Served[] = [];
  const now = (): Sandbox => {
    if (!current) throw new Error("the serve test sandbox is used outside a test");
    return current;
  };
  beforeEach(() => {
    current = makeSandbox(prefix);
  });
  afterEach(async () => {
    const servers = started;
    started = [];
    for (const s of servers) await s.stop("SIGKILL");
    current?.cleanup();
    current = undefined;
  });
  const sb: Sandbox = {
    get home() {
      return now().home;
    },
    get project() {
      return now().project;
    },
    get env() {
      return now().env;
    },
    write: (...a) => now().write(...a),
    cleanup: () => now().cleanup(),
  };
  return {
    sb,
    startServe: async (...a) => {
      const s = await startServe(...a);
      started.push(s);
      return s;
    },
  };
}
