/**
 * docs/architecture.md's hook-order tables are generated from the code (build/hook-tables.ts: the stage
 * tables and the taps of a default session through the compiled CLI). Stale tables fail here.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { BEGIN, DOC, END, liveHooks, renderHookTables, withTables } from "../../build/hook-tables.js";

describe("docs/architecture.md hook-order tables", () => {
  it("match the code (regenerate with: node dist/build/hook-tables.js --write)", () => {
    const doc = fs.readFileSync(DOC, "utf8");
    expect(doc).toContain(BEGIN);
    expect(doc).toContain(END);
    const tables = renderHookTables(liveHooks());
    // the generated section names the security hook's phases in their order
    expect(tables).toMatch(/\| `mode` [^\n]*\| plan-mode \|\n\| `hooks` [^\n]*\| hooks \|\n\| `floor` [^\n]*\| shell-guard \|/);
    expect(withTables(doc, tables) === doc, "docs/architecture.md is stale: run node dist/build/hook-tables.js --write").toBe(true);
  }, 60_000);
});
