/** The set-up serve test files share (vitest hooks: kept apart from serve-helpers.ts, which a bench imports too). */
import { afterEach } from "vitest";
import type { Sandbox } from "../../../test/kit/cli.js";
import { sandboxForEach } from "../../../test/kit/file-fixtures.js";
import { startServe, type Served } from "./serve-helpers.js";

/**
 * A serve test file's set-up: a fresh sandbox for each test (`sb` stands for the running test's, so a file
 * uses it as it would its own `let sb`) and `startServe` remembering what it started; after each test
 * those servers are killed, then the sandbox is removed.
 */
export function serveTests(prefix: string): { sb: Sandbox; startServe: typeof startServe } {
  const sb = sandboxForEach(prefix);
  let started: Served[] = [];
  // registered after the sandbox's: runs before it is removed
  afterEach(async () => {
    const servers = started;
    started = [];
    for (const s of servers) await s.stop("SIGKILL");
  });
  return {
    sb,
    startServe: async (...a) => {
      const s = await startServe(...a);
      started.push(s);
      return s;
    },
  };
}
