/**
 * The set-up the ACP test files share: one fake Anthropic server and one sandbox for the file (`setup`
 * writes what every test starts from), and `start` for `oceancode acp` on them (Sonnet on the fake),
 * each child killed after its test.
 */
import { anthropicEnv, type Sandbox } from "../../../test/kit/cli.js";
import { afterEachTest, fakeAnthropicForFile, sandboxForFile } from "../../../test/kit/file-fixtures.js";
import type { FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { startAcp, type AcpChild } from "./client.js";

export const ACP_MODEL = "anthropic/claude-sonnet-4-5";

export interface AcpTests {
  fake: FakeAnthropicServer;
  sb: Sandbox;
  /** the environment `start` gives the agent: the sandbox's, on the fake, with `extra` over it */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** `oceancode acp` (with `args`) in the sandbox's project */
  start(args?: string[], extra?: NodeJS.ProcessEnv): AcpChild;
  /** a child started some other way, killed with the rest */
  track(c: AcpChild): AcpChild;
}

export function acpTests(prefix: string, setup?: (sb: Sandbox) => void): AcpTests {
  const fake = fakeAnthropicForFile();
  const sb = sandboxForFile(prefix, setup);
  const track = afterEachTest<AcpChild>((c) => c.kill());
  const env = (extra: NodeJS.ProcessEnv = {}) => anthropicEnv(sb, fake.url, { OC_MODEL: ACP_MODEL, ...extra });
  return { fake, sb, env, track, start: (args = [], extra = {}) => track(startAcp(env(extra), args, sb.project)) };
}
