/** The engine's tools and providers points: what registers is checked against what manifests declare. */
import { describe, expect, it } from "vitest";
import { Tools, Providers } from "../registries.js";
import type { Provider, ToolDefinition } from "../api.js";

const tool = (name: string) => ({ name, description: name, inputSchema: {}, kind: "read", run: async () => ({ content: "" }) }) as unknown as ToolDefinition;

describe("declared vs registered", () => {
  it("tools: one warning for an undeclared registration (naming who registered) and one per declared tool that never registered", () => {
    const warnings: string[] = [];
    const tools = new Tools(new Map([["read", "tools"], ["ghost", "spooky"]]), (m) => warnings.push(m));
    tools.register(tool("read"), "tools");
    tools.register(tool("sneak"), "rogue");
    tools.checkDeclared();
    tools.checkDeclared(); // once only
    expect(warnings).toEqual([
      "extension 'rogue' registered tool 'sneak', which no manifest declares in contributes.tools",
      "extension 'spooky' declares tool 'ghost' in contributes.tools but never registered it",
    ]);
    expect(() => tools.register(tool("read"))).toThrow(expect.objectContaining({ code: "OC_ERR_DUPLICATE_TOOL", message: "tool 'read' is already registered" }));
  });

  it("providers: an undeclared registration and a declared provider that did not register after its activation", () => {
    const warnings: string[] = [];
    const providers = new Providers(new Map([["anthropic", "anthropic"], ["lazybones", "lazy-ext"]]), (m) => warnings.push(m));
    providers.register({ id: "anthropic" } as Provider, "anthropic");
    providers.register({ id: "other" } as Provider, "someone");
    providers.checkLoaded("anthropic");
    providers.checkLoaded("lazybones");
    expect(warnings).toEqual([
      "extension 'someone' registered provider 'other', which no manifest declares in contributes.providers",
      "extension 'lazy-ext' declares provider 'lazybones' in contributes.providers but did not register it",
    ]);
  });

  it("providers: '*' lets its own extension register the providers users declare, nobody else", () => {
    const warnings: string[] = [];
    const providers = new Providers(new Map([["*", "openai-compatible"]]), (m) => warnings.push(m));
    providers.register({ id: "mylocal" } as Provider, "openai-compatible");
    providers.register({ id: "stray" } as Provider, "someone");
    providers.checkLoaded("*");
    expect(warnings).toEqual(["extension 'someone' registered provider 'stray', which no manifest declares in contributes.providers"]);
  });

  it("without declarations (an engine built outside the kernel) nothing is checked", () => {
    const tools = new Tools();
    tools.register(tool("x"));
    tools.checkDeclared();
    expect(tools.list().map((t) => t.name)).toEqual(["x"]);
  });
});
