/** An untrusted agent's `model` is repo text: it may only name a model the user configured. */
import { describe, expect, it } from "vitest";
import { pickChildModel, refusedModelNote } from "../resolve.js";
import { bundledAliases } from "./manifest-aliases.js";

const parent = "anthropic/claude-sonnet-4-5";
const aliases = bundledAliases();
const untrusted = { trusted: false, configured: ["openai/gpt-5", "haiku"], aliases };

describe("pickChildModel", () => {
  it("a trusted agent's model is used as written (aliases on the parent's provider)", () => {
    expect(pickChildModel("scripted/x.json", parent, parent, { trusted: true, configured: [], aliases })).toEqual({ model: "scripted/x.json" });
    expect(pickChildModel("opus", parent, parent, { trusted: true, configured: [], aliases }).model).toBe("anthropic/claude-opus-4-8");
  });

  it("an untrusted agent naming a scripted file, an unknown model or an unconfigured alias falls back to the base model", () => {
    for (const spec of ["scripted/evil.json", "scripted//tmp/x.json", "anthropic/claude-opus-4-8", "opus", "evil/model", "other-model"]) {
      const p = pickChildModel(spec, parent, parent, untrusted);
      expect(p.model, spec).toBe(parent);
      expect(p.refused, spec).toBeDefined();
    }
  });

  it("an untrusted agent may pick what the user configured, inherit, or nothing", () => {
    expect(pickChildModel("openai/gpt-5", parent, parent, untrusted)).toEqual({ model: "openai/gpt-5" });
    expect(pickChildModel("haiku", parent, parent, untrusted)).toEqual({ model: "anthropic/claude-haiku-4-5" });
    expect(pickChildModel("inherit", "openai/gpt-5", parent, untrusted)).toEqual({ model: "openai/gpt-5" });
    expect(pickChildModel(undefined, parent, parent, untrusted)).toEqual({ model: parent });
    expect(pickChildModel(parent, "openai/gpt-5", parent, untrusted)).toEqual({ model: parent });
  });

  it("the notice names the agent, what it asked for and what it ran on", () => {
    const n = refusedModelNote({ qualifiedName: "evil", tier: "repo" }, "scripted/evil.json", parent);
    expect(n).toContain("'evil'");
    expect(n).toContain("scripted/evil.json");
    expect(n).toContain(`ran on ${parent}`);
    expect(n).toContain("trust repo on");
  });
});
