/** The set-up serve test files share (vitest hooks: kept apart from serve-helpers.ts, which a bench imports too). */
import { afterAll, beforeAll } from "vitest";
import { anthropicEnv, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { afterEachTest, sandboxForEach, standIn } from "../../../test/kit/file-fixtures.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { OceancodeClient } from "../client/index.js";
import { startServe, type Served } from "./serve-helpers.js";

/**
 * A serve test file's set-up: a fresh sandbox for each test (`sb` stands for the running test's, so a file
 * uses it as it would its own `let sb`) and `startServe` remembering what it started; after each test
 * those servers are killed, then the sandbox is removed.
 */
export function serveTests(prefix: string): { sb: Sandbox; startServe: typeof startServe } {
  const sb = sandboxForEach(prefix);
  // asked for after the sandbox: the servers are killed before it is removed
  const started = afterEachTest<Served>((s) => s.stop("SIGKILL"));
  return { sb, startServe: async (...a) => started(await startServe(...a)) };
}

export interface ServedOnFake {
  fake: FakeAnthropicServer;
  sb: Sandbox;
  srv: Served;
  /** the typed client on `srv` */
  api: OceancodeClient;
}

/**
 * One `oceancode serve` for a whole file, its model the fake Anthropic server: the fake, the sandbox
 * (`setup` writes its files first), the server (`args` after --directory, `env` over the sandbox's) and a
 * client, made before the first test; the server killed, the fake closed, the sandbox removed after the last.
 */
export function servedOnFake(o: { prefix: string; args?: string[]; env?: NodeJS.ProcessEnv; setup?: (sb: Sandbox) => void }): ServedOnFake {
  let live: ServedOnFake | undefined;
  beforeAll(async () => {
    const fake = await startFakeAnthropic();
    const sb = makeSandbox(o.prefix);
    // kept at once: a failed start below still closes the fake and removes the sandbox
    live = { fake, sb } as ServedOnFake;
    o.setup?.(sb);
    live.srv = await startServe(["--directory", sb.project, ...(o.args ?? [])], { env: anthropicEnv(sb, fake.url, o.env) });
    live.api = new OceancodeClient({ baseUrl: live.srv.url });
  }, 60_000);
  afterAll(async () => {
    await live?.srv?.stop("SIGKILL");
    await live?.fake.close();
    live?.sb.cleanup();
    live = undefined;
  });
  const part = <K extends keyof ServedOnFake>(k: K): ServedOnFake[K] => standIn(`the file's ${k}`, () => live?.[k]);
  return { fake: part("fake"), sb: part("sb"), srv: part("srv"), api: part("api") };
}
