/**
 * The provider manifests' contributes.models are the catalogue (ids, aliases and figures in one place, so
 * names and figures cannot drift); names people type resolve over them, and a mistyped one names the nearest.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ScriptedProvider } from "../../scripted/provider.js";
import { DEFAULT_MODEL_ID, type ModelNameEntry } from "../api.js";
import { ModelNames, ProviderError } from "../kit.js";

interface ProviderManifest {
  contributes: { providers: string[]; models: ModelNameEntry[] };
}
const manifest = (id: string) => JSON.parse(fs.readFileSync(new URL(`../../${id}/manifest.json`, import.meta.url), "utf8")) as ProviderManifest;
const catalogues: Record<string, string[]> = {
  anthropic: manifest("anthropic").contributes.models.map((m) => m.id),
  openai: manifest("openai").contributes.models.map((m) => m.id),
  scripted: new ScriptedProvider("/nowhere").models().map((m) => m.id),
};
const names = ModelNames.fromContributions(
  Object.keys(catalogues).map((id) => ({ extension: id, tier: "bundled" as const, value: manifest(id).contributes.providers })),
  Object.keys(catalogues).map((id) => ({ extension: id, tier: "bundled" as const, value: manifest(id).contributes.models })),
);

describe("contributes.models against each provider's catalogue", () => {
  for (const [id, catalogue] of Object.entries(catalogues)) {
    it(`${id}: the manifest lists the catalogue's ids, each under its own provider, with its figures`, () => {
      const models = manifest(id).contributes.models;
      expect([...models.map((m) => m.id)].sort()).toEqual([...catalogue].sort());
      for (const m of models) expect(manifest(id).contributes.providers).toContain(m.id.slice(0, m.id.indexOf("/")));
      // a first-party cloud model ships its limits and prices; the scripted model lists its own at run time
      if (id !== "scripted") for (const m of models) expect([m.id, m.contextWindow! > 0, m.maxOutputTokens! > 0, m.price!.input >= 0]).toEqual([m.id, true, true, true]);
    });
  }
  it("every alias names one listed model, and no alias is listed twice", () => {
    const all = Object.keys(catalogues).flatMap((id) => manifest(id).contributes.models.flatMap((m) => m.aliases ?? []));
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual(["haiku", "opus", "sonnet"]);
  });
});

describe("ModelNames.resolve", () => {
  it("aliases, bare ids (dated snapshots too) and full ids", () => {
    expect(names.resolve("sonnet")).toEqual({ id: "anthropic/claude-sonnet-4-6", via: "alias" });
    expect(names.resolve("Opus").id).toBe("anthropic/claude-opus-4-8");
    expect(names.resolve("haiku").id).toBe("anthropic/claude-haiku-4-5");
    expect(names.resolve("default").id).toBe(DEFAULT_MODEL_ID);
    expect(names.resolve("claude-sonnet-4-6")).toEqual({ id: "anthropic/claude-sonnet-4-6", via: "bare" });
    expect(names.resolve("claude-sonnet-4-5-20250929").id).toBe("anthropic/claude-sonnet-4-5-20250929");
    expect(names.resolve("gpt-5").id).toBe("openai/gpt-5");
    expect(names.resolve("echo").id).toBe("scripted/echo");
    expect(names.resolve("anthropic/sonnet").id).toBe("anthropic/claude-sonnet-4-6");
  });
  it("provider/model of a known provider stays as written, listed or not (a scripted file, a new model)", () => {
    expect(names.resolve("anthropic/claude-next-9")).toEqual({ id: "anthropic/claude-next-9", via: "full" });
    expect(names.resolve("scripted/s.json")).toEqual({ id: "scripted/s.json", via: "full" });
  });
  it("a provider nobody lists: returned as written, flagged, with the nearest provider as a hint", () => {
    expect(names.resolve("antropic/claude-x")).toEqual({ id: "antropic/claude-x", via: "full", unknownProvider: true });
    expect(names.providerHint("antropic/claude-x")).toBe(" (did you mean anthropic/claude-x?)");
    expect(names.providerHint("zzzzzzzz/x")).toBe("");
  });
  it("an unknown short name is a usage error naming the nearest known ids", () => {
    const err = (n: string) => {
      try {
        names.resolve(n);
      } catch (e) {
        expect(e).toBeInstanceOf(ProviderError);
        expect((e as ProviderError).code).toBe("bad_request");
        return (e as Error).message;
      }
      throw new Error(`${n} resolved`);
    };
    expect(err("sonet")).toMatch(/^unknown model 'sonet' \(did you mean anthropic\/claude-sonnet-4-6/);
    expect(err("gpt5")).toContain("did you mean openai/gpt-5");
    expect(err("claude-sonnet-4-7")).toContain("anthropic/claude-sonnet-4-6");
    expect(err("")).toContain("empty");
    expect(err("/x")).toContain("names no provider");
  });
  it("with(): a loaded provider's catalogue and registered ids count as known", () => {
    const more = names.with(["fake"], ["fake/m-1"]);
    expect(more.resolve("m-1").id).toBe("fake/m-1");
    expect(more.resolve("fake/other")).toEqual({ id: "fake/other", via: "full" });
    expect(more.resolve("sonnet").id).toBe("anthropic/claude-sonnet-4-6");
  });
});
