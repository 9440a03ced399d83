/**
 * The conformance suites of oceancode/testing against the bundled implementations: the anthropic and
 * openai providers through their real SDKs against the fake servers on 127.0.0.1, the SQLite storage on
 * disk, a bundled tool (read), and the engine's own hooks object.
 */
import fs from "node:fs";
import { expect } from "vitest";
import path from "node:path";
import { describeEngineContract, describeProviderContract, describeStorageContract, describeToolContract, tempDir, type ProviderScenario } from "../../extensions/engine/testing/index.js";
import { createAnthropicProvider } from "../../extensions/anthropic/provider.js";
import { createOpenAIProvider } from "../../extensions/openai/provider.js";
import { createEngineHooks } from "../../extensions/engine/hooks.js";
import { createTools } from "../../extensions/tools/tools.js";
import { SqliteStore } from "../../extensions/storage/store.js";
import { tapEngine } from "../../extensions/storage/taps.js";
import { storageAdmin } from "../../extensions/storage/admin.js";
import { startFakeAnthropic, type AnthropicReply } from "../kit/fakes/anthropic-server.js";
import { startFakeOpenAI, type OpenAIReply } from "../kit/fakes/openai-server.js";
import { scenarioReply } from "../kit/fakes/scenario-reply.js";

const anthropicReply = (s: ProviderScenario): AnthropicReply => scenarioReply(s);
const openaiReply = (s: ProviderScenario): OpenAIReply => scenarioReply(s);

describeProviderContract("anthropic (real SDK, fake server)", async () => {
  const fake = await startFakeAnthropic({ apiKey: "sk-ant-test" });
  return {
    provider: createAnthropicProvider({ apiKey: () => "sk-ant-test", baseURL: () => fake.url, cacheTtl: () => "5m" }),
    model: "claude-sonnet-4-5",
    arrange(s) {
      fake.reset();
      fake.enqueue(anthropicReply(s));
    },
    errors: ["rate_limited", "overloaded", "server", "prompt_too_long", "auth", "network", "bad_request"],
    close: () => fake.close(),
  };
});

describeProviderContract("openai (real SDK, fake server)", async () => {
  const fake = await startFakeOpenAI({ apiKey: "sk-test" });
  return {
    provider: createOpenAIProvider({ apiKey: () => "sk-test", baseURL: () => fake.baseURL }),
    model: "gpt-4.1",
    arrange(s) {
      fake.reset();
      fake.enqueue(openaiReply(s));
    },
    errors: ["rate_limited", "overloaded", "server", "prompt_too_long", "auth", "network", "bad_request"],
    close: () => fake.close(),
  };
});

describeStorageContract("storage (SQLite on disk)", ({ engine, dir }) => {
  const s = new SqliteStore({ file: path.join(dir, "oceancode.db"), onError: () => undefined });
  tapEngine(engine, s, "storage");
  const store = Object.assign(s, storageAdmin(s, { repair: "oceancode storage repair", retention: { dbDays: 30, participants: async () => [] }, sources: async () => [], retentionDays: 30 }));
  return {
    storage: store,
    close: () => {
      s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeToolContract("read (bundled)", () => {
  const project = tempDir("oc-read-conformance-");
  fs.writeFileSync(path.join(project, "notes.txt"), "one\ntwo\n");
  const tools = createTools({ project, home: project, dataDir: path.join(project, ".data"), maxOutputChars: 30_000, bashTimeoutMs: 10_000, refs: {}, useRipgrep: false });
  return {
    tool: tools.find((t) => t.name === "read")!,
    input: { file_path: "notes.txt" },
    invalidInput: { offset: 2 },
    cwd: project,
    expectContent: (c) => expect(c).toContain("two"),
  };
});

describeEngineContract("engine hooks (bundled)", () => ({ hooks: createEngineHooks() }));
