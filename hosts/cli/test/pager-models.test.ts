/**
 * Model names in the pager (a real PTY): `-m haiku` shows the full id in the header; `/models sonnet` takes
 * an alias, `/models sonet` names the nearest and changes nothing; the picker lists models of providers that
 * have not loaded (from their manifests).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, openPager, pause, typeLine, type Pty } from "../../../test/kit/pty.js";

let sb: Sandbox;
let t: Pty | undefined;

describe.skipIf(!hasTmux())("pager: model names", () => {
  beforeAll(() => {
    sb = makeSandbox("oc-pager-models-");
  });
  afterAll(() => {
    t?.close();
    sb.cleanup();
  });

  it("-m haiku in the header, /models with an alias and a slip, the picker from the manifests", async () => {
    t = openPager(sb, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" }, ["-m", "haiku"], { cols: 140, rows: 40 });
    await t.waitFor("❯", 20_000);
    expect(t.screen()).toContain("anthropic/claude-haiku-4-5");
    await typeLine(t, "/models sonnet");
    await t.waitFor("model: anthropic/claude-sonnet-4-6 (from your next message on)", 10_000, { inHistory: true });
    await typeLine(t, "/models sonet");
    await t.waitFor(/unknown model 'sonet' \(did you mean anthropic\/claude-sonnet-4-6/, 10_000, { inHistory: true });
    await typeLine(t, "/models");
    await t.waitFor("MODEL", 10_000);
    // openai has not loaded in this process: its ids come from its manifest (finding 23)
    for (let i = 0; i < 60 && !t.screen().includes("openai/gpt-5-mini"); i++) {
      t.key("Down");
      await pause(30);
    }
    await t.waitFor("openai/gpt-5-mini", 10_000);
    t.key("Escape");
    await t.waitFor("model unchanged", 10_000, { inHistory: true });
  });
});
