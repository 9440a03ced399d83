/** The engine's catalogue seeded from manifest entries: figures, defaults, the unknown-model notice once, cost. */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { Catalogue } from "../models.js";
import { CATALOGUE_DEFAULTS, type ModelNameEntry } from "../api.js";
import { ModelNames, modelInfoFromEntry } from "../kit.js";

const ENTRIES: ModelNameEntry[] = [
  { id: "acme/big", aliases: ["big"], contextWindow: 500_000, maxOutputTokens: 32_000, price: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 4 }, tools: true, images: true },
  { id: "acme/cheap", price: { input: 1, output: 3 } },
  { id: "local/llama3.3" },
];

function catalogue(describe?: (id: string) => ReturnType<typeof modelInfoFromEntry> | undefined) {
  const notices: string[] = [];
  return { notices, c: new Catalogue((id) => notices.push(id), describe, ENTRIES) };
}

describe("the catalogue from manifest entries", () => {
  it("an entry's figures; cache prices default to the input price; unset figures are the defaults", () => {
    const { c, notices } = catalogue();
    expect(c.resolve("acme/big")).toEqual({ id: "acme/big", provider: "acme", name: "big", contextWindow: 500_000, maxOutputTokens: 32_000, price: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 4 }, tools: true, images: true, known: true });
    expect(c.resolve("acme/cheap")).toMatchObject({ contextWindow: CATALOGUE_DEFAULTS.contextWindow, price: { input: 1, output: 3, cacheRead: 1, cacheWrite: 1 }, tools: true, images: false });
    expect(notices).toEqual([]);
  });

  it("a listed model without a context window: defaults, known false (the tideline uses its fixed line), no notice", () => {
    const { c, notices } = catalogue();
    expect(c.resolve("local/llama3.3")).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 8_192, known: false });
    expect(c.list().find((m) => m.id === "local/llama3.3")?.known).toBe(false);
    expect(notices).toEqual([]);
  });

  it("a loaded provider's description wins over a listed entry without a size", () => {
    const { c } = catalogue((id) => (id === "local/llama3.3" ? { ...modelInfoFromEntry({ id }), contextWindow: 131_072 } : undefined));
    expect(c.resolve("local/llama3.3")).toMatchObject({ contextWindow: 131_072, known: true });
  });

  it("an unlisted model: defaults and one notice per model, however often it is resolved", () => {
    const { c, notices } = catalogue();
    for (let i = 0; i < 3; i++) expect(c.resolve("acme/next-9")).toMatchObject({ known: false, contextWindow: 200_000, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
    c.resolve("acme/next-10");
    expect(notices).toEqual(["acme/next-9", "acme/next-10"]);
  });

  it("sameAs: a route's id shares another entry's figures (followed through a chain); its own figures win", () => {
    const names = new ModelNames(["acme", "cloud"], [
      ...ENTRIES,
      { id: "cloud/acme.big-v1", sameAs: "acme/big", maxOutputTokens: 16_000 },
      { id: "cloud/eu.acme.big-v1", sameAs: "cloud/acme.big-v1" },
      { id: "cloud/loop", sameAs: "cloud/loop" },
    ]);
    const c = new Catalogue(() => undefined, undefined, names.entries());
    expect(c.resolve("cloud/acme.big-v1")).toMatchObject({ name: "acme.big-v1", contextWindow: 500_000, maxOutputTokens: 16_000, price: { input: 2, output: 10 }, images: true, known: true });
    expect(c.resolve("cloud/eu.acme.big-v1")).toMatchObject({ contextWindow: 500_000, maxOutputTokens: 16_000, price: { cacheWrite: 4 } });
    expect(names.aliases()).toEqual([["big", "acme/big"]]);
    expect(c.resolve("cloud/loop")).toMatchObject({ contextWindow: 200_000, known: false });
  });

  it("cost is tokens x the entry's price per MTok", () => {
    const { c } = catalogue();
    const cost = c.cost(c.resolve("acme/big"), { inputTokens: 1_000_000, outputTokens: 200_000, cacheReadTokens: 3_000_000, cacheWriteTokens: 500_000 });
    expect(cost).toBeCloseTo(2 + 2 + 0.6 + 2, 9);
  });
});

describe("every installed provider's manifest as catalogue data", () => {
  const root = new URL("../../", import.meta.url);
  const manifests = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(new URL(`${d.name}/manifest.json`, root)))
    .map((d) => JSON.parse(fs.readFileSync(new URL(`${d.name}/manifest.json`, root), "utf8")) as { id: string; contributes?: { models?: ModelNameEntry[] } });
  /** the providers whose current models have published limits and prices: each entry must carry them */
  const PRICED = new Set(["anthropic", "openai", "bedrock", "vertex", "google"]);

  it("a priced provider's every entry ships its context window, output limit and prices", () => {
    const missing: string[] = [];
    let checked = 0;
    // as the engine reads them: sameAs figures filled in
    const names = new ModelNames([], manifests.flatMap((m) => m.contributes?.models ?? []));
    const owner = new Map(manifests.flatMap((m) => (m.contributes?.models ?? []).map((e) => [e.id, m.id] as const)));
    for (const e of names.entries()) {
      if (!PRICED.has(e.id.slice(0, e.id.indexOf("/")))) continue;
      checked++;
      if (!(e.contextWindow && e.maxOutputTokens && e.price)) missing.push(`${owner.get(e.id)}: ${e.id}`);
    }
    expect(checked).toBeGreaterThan(20);
    expect(missing, "move the figures into these manifest entries (docs/providers-catalogue.md)").toEqual([]);
  });

  it("an id is listed by one manifest only, and a cache read, where priced, costs no more than input", () => {
    const ids = manifests.flatMap((m) => (m.contributes?.models ?? []).map((e) => e.id));
    expect(ids.length).toBe(new Set(ids).size);
    for (const m of manifests) for (const e of m.contributes?.models ?? []) if (e.sameAs) expect(ids, `${e.id} sameAs`).toContain(e.sameAs);
    for (const m of manifests) for (const e of m.contributes?.models ?? []) if (e.price?.cacheRead !== undefined) expect(e.price.cacheRead, e.id).toBeLessThanOrEqual(e.price.input);
  });
});
