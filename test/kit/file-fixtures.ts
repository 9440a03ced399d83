/**
 * Fixtures a test file keeps across its tests or makes fresh for each, behind a stand-in that is the live
 * one from the first test on (so the file names it once at the top, as it did its own `let`):
 *   - fakeAnthropicForFile(): one fake Anthropic server, reset after each test, closed after the last;
 *   - sandboxForFile() / sandboxForEach(): a temp HOME and project for the file, or fresh for each test.
 * After-hooks run last-registered first: call these before the helpers whose teardown must come first.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { makeSandbox, type Sandbox } from "./cli.js";
import { startFakeAnthropic, type FakeAnthropicOptions, type FakeAnthropicServer } from "./fakes/anthropic-server.js";

/** An object standing for whatever `live()` returns when it is used; a clear error before there is one. */
function standIn<T extends object>(what: string, live: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = live();
      if (!target) throw new Error(`${what} is not there (read of ${String(key)} outside its tests)`);
      const v: unknown = Reflect.get(target, key);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

export function fakeAnthropicForFile(opts: FakeAnthropicOptions = {}): FakeAnthropicServer {
  let live: FakeAnthropicServer | undefined;
  beforeAll(async () => {
    live = await startFakeAnthropic(opts);
  });
  afterEach(() => live?.reset());
  afterAll(async () => {
    await live?.close();
    live = undefined;
  });
  return standIn("the file's fake Anthropic server", () => live);
}

/** One sandbox for the whole file; `setup` writes what every test starts from. */
export function sandboxForFile(prefix: string, setup: (sb: Sandbox) => void = () => {}): Sandbox {
  let live: Sandbox | undefined;
  beforeAll(() => {
    live = makeSandbox(prefix);
    setup(live);
  });
  afterAll(() => {
    live?.cleanup();
    live = undefined;
  });
  return standIn("the file's sandbox", () => live);
}

/** A fresh sandbox for each test, removed after it. */
export function sandboxForEach(prefix: string): Sandbox {
  let live: Sandbox | undefined;
  beforeEach(() => {
    live = makeSandbox(prefix);
  });
  afterEach(() => {
    live?.cleanup();
    live = undefined;
  });
  return standIn("the test's sandbox", () => live);
}
