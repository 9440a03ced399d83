/**
 * The example extensions (examples/extensions/) against their conformance suites, imported the way a
 * third party's tests would: the suites from "oceancode/testing", the extension from its own folder.
 * The stand-ins activate through testContext, as the kernel would activate them.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeProviderContract, describeStorageContract, describeToolContract, tempDir, testContext } from "oceancode/testing";
import type { Provider } from "oceancode/api/engine";
import type { StorageService } from "oceancode/api/storage";
// @ts-expect-error plain JavaScript examples, no declarations
import echo, { createEchoProvider } from "../../examples/extensions/echo-provider/index.js";
// @ts-expect-error plain JavaScript examples, no declarations
import jsonStore from "../../examples/extensions/json-store/index.js";
// @ts-expect-error plain JavaScript examples, no declarations
import { wordCount } from "../../examples/extensions/word-count/index.js";

const EXAMPLES = path.resolve(import.meta.dirname, "..", "..", "examples", "extensions");

describeProviderContract("echo-provider (example)", () => {
  const provider = (createEchoProvider as () => Provider & { plan: unknown[] })();
  return {
    provider,
    model: "echo",
    arrange(s) {
      provider.plan.length = 0;
      if (s.kind === "text") provider.plan.push({ text: s.text });
      else if (s.kind === "tool_call") provider.plan.push({ toolCall: { name: s.name, input: s.input } });
      else if (s.kind === "stall") provider.plan.push({ stall: s.text });
      else provider.plan.push({ error: s.code });
    },
    errors: ["rate_limited", "overloaded", "server", "prompt_too_long", "auth", "network", "bad_request"],
  };
});

describeStorageContract("json-store (example, activated as an extension)", async ({ engine, dir }) => {
  const ctx = testContext({ id: "json-store", dir: path.join(EXAMPLES, "json-store"), services: { engine }, config: { json_store: { dir } } });
  await (jsonStore as { activate(c: unknown): void }).activate(ctx);
  return { storage: ctx.provided.get("storage") as StorageService, close: () => fs.rmSync(dir, { recursive: true, force: true }) };
});

describeToolContract("word-count (example)", () => {
  const cwd = tempDir("oc-wc-");
  fs.writeFileSync(path.join(cwd, "notes.txt"), "one two\nthree\n");
  return {
    tool: wordCount,
    input: { path: "notes.txt" },
    invalidInput: { file: 3 },
    cwd,
    expectContent: (c) => expect(c).toBe("notes.txt: 2 lines, 3 words, 14 characters"),
  };
});

// the echo provider registers with the engine when activated (as the kernel does on onEvent:provider:echo)
describe("echo-provider activation", () => {
  it("registers provider 'echo' and its model", async () => {
    const registered: Provider[] = [];
    const added: unknown[] = [];
    const engine = { providers: { register: (p: Provider) => registered.push(p) }, models: { add: (m: unknown) => added.push(m) } };
    await (echo as { activate(c: unknown): void }).activate(testContext({ id: "echo-provider", services: { engine } }));
    expect(registered.map((p) => p.id)).toEqual(["echo"]);
    expect(added).toMatchObject([{ id: "echo/echo", provider: "echo" }]);
  });
});
