/**
 * Fixtures a test file keeps across its tests or makes fresh for each, behind a stand-in that is the live
 * one from the first test on (so the file names it once at the top, as it did its own `let`):
 *   - fakeAnthropicForFile(): one fake Anthropic server, reset after each test, closed after the last;
 *   - sandboxForFile() / sandboxForEach(): a temp HOME and project for the file, or fresh for each test;
 *   - providerFakesForFile(): the fake Anthropic and OpenAI servers together, reset before each test;
 *   - runOnceOnFake(): a file whose tests all read one `oceancode run` on the fake Anthropic server;
 *   - perTest(): makeSandbox and startFakeAnthropic remembering what a test made, torn down after it;
 *   - afterEachTest(): the primitive under those, for a test helper's own kind of thing.
 * After-hooks run last-registered first: call these before the helpers whose teardown must come first.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { anthropicEnv, cleanupSettled, makeSandbox, runCliAsync, type RunResult, type Sandbox } from "./cli.js";
import { startFakeAnthropic, type FakeAnthropicOptions, type FakeAnthropicServer } from "./fakes/anthropic-server.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "./fakes/openai-server.js";

/** An object standing for whatever `live()` returns when it is used; a clear error before there is one. */
export function standIn<T extends object>(what: string, live: () => T | undefined): T {
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

/** The fake Anthropic and OpenAI servers for a whole file (`chunkChars` for both), reset before each test unless `reset` is false. */
export function providerFakesForFile(o: { chunkChars?: number; reset?: boolean } = {}): { anthropic: FakeAnthropicServer; openai: FakeOpenAIServer } {
  let anthropic: FakeAnthropicServer | undefined;
  let openai: FakeOpenAIServer | undefined;
  const opts = o.chunkChars === undefined ? {} : { chunkChars: o.chunkChars };
  beforeAll(async () => {
    anthropic = await startFakeAnthropic(opts);
    openai = await startFakeOpenAI(opts);
  });
  afterAll(async () => {
    await anthropic?.close();
    await openai?.close();
    anthropic = openai = undefined;
  });
  if (o.reset !== false)
    beforeEach(() => {
      anthropic?.reset();
      openai?.reset();
    });
  return { anthropic: standIn("the file's fake Anthropic server", () => anthropic), openai: standIn("the file's fake OpenAI server", () => openai) };
}

function sandboxFixture(before: typeof beforeAll, after: typeof afterAll, what: string, prefix: string, setup: (sb: Sandbox) => void): Sandbox {
  let live: Sandbox | undefined;
  before(() => {
    live = makeSandbox(prefix);
    setup(live);
  });
  after(() => {
    live?.cleanup();
    live = undefined;
  });
  return standIn(what, () => live);
}

/** One sandbox for the whole file; `setup` writes what every test starts from. */
export const sandboxForFile = (prefix: string, setup: (sb: Sandbox) => void = () => {}): Sandbox => sandboxFixture(beforeAll, afterAll, "the file's sandbox", prefix, setup);

/** A fresh sandbox for each test (`setup` writes what each starts from), removed after it. */
export const sandboxForEach = (prefix: string, setup: (sb: Sandbox) => void = () => {}): Sandbox => sandboxFixture(beforeEach, afterEach, "the test's sandbox", prefix, setup);

export interface OneRunOptions {
  timeoutMs?: number;
  /** the bound on the whole set-up (the run included) */
  hookTimeoutMs?: number;
  fake?: FakeAnthropicOptions;
}

/**
 * A file whose tests all read one `oceancode run <args>` (asynchronous: the fake answers in this process)
 * on a fake Anthropic server: `setup` scripts the fake and writes the sandbox's files; the fake, the
 * sandbox and the run's result are made before the first test, closed and removed after the last.
 */
export function runOnceOnFake(
  prefix: string,
  args: string[],
  setup: (sb: Sandbox, fake: FakeAnthropicServer) => void | Promise<void>,
  o: OneRunOptions = {},
): { fake: FakeAnthropicServer; sb: Sandbox; result: RunResult } {
  let fake: FakeAnthropicServer | undefined;
  let sb: Sandbox | undefined;
  let result: RunResult | undefined;
  beforeAll(async () => {
    fake = await startFakeAnthropic(o.fake);
    sb = makeSandbox(prefix);
    await setup(sb, fake);
    result = await runCliAsync(["run", ...args], { cwd: sb.project, env: anthropicEnv(sb, fake.url), timeoutMs: o.timeoutMs ?? 60_000 });
  }, o.hookTimeoutMs ?? 90_000);
  afterAll(async () => {
    await fake?.close();
    sb?.cleanup();
    fake = sb = result = undefined;
  });
  return { fake: standIn("the run's fake Anthropic server", () => fake), sb: standIn("the run's sandbox", () => sb), result: standIn("the run's result", () => result) };
}

/**
 * `keep(x)` remembers `x` (and returns it); after each test everything kept is handed to `teardown`, one
 * at a time in the order made. Each call registers its own after-each hook, and those run last-registered
 * first: ask for the one to be torn down last first.
 */
export function afterEachTest<T>(teardown: (x: T) => unknown): <U extends T>(x: U) => U {
  let kept: T[] = [];
  afterEach(async () => {
    const all = kept;
    kept = [];
    for (const x of all) await teardown(x);
  });
  return (x) => {
    kept.push(x);
    return x;
  };
}

export interface PerTest {
  makeSandbox: typeof makeSandbox;
  startFakeAnthropic: typeof startFakeAnthropic;
}

/**
 * The kit's makeSandbox and startFakeAnthropic (same names, same arguments), remembering what each test
 * made: after it the fakes are closed, then the sandboxes removed (retried while a killed child lets go).
 */
export function perTest(): PerTest {
  const box = afterEachTest<Sandbox>(cleanupSettled);
  const fake = afterEachTest<FakeAnthropicServer>((f) => f.close());
  return { makeSandbox: (prefix) => box(makeSandbox(prefix)), startFakeAnthropic: async (o) => fake(await startFakeAnthropic(o)) };
}
