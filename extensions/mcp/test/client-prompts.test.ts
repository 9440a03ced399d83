/** Unit: typed `/mcp__<server>__<prompt>` forms, argument mapping, prompts/get messages -> text. */
import { describe, expect, it } from "vitest";
import { mapArgs, messagesText, parseMcpSlash, promptCatalog, splitWords, usage } from "../client/prompts.js";
import type { McpManager } from "../client/manager.js";

const CITY = [{ name: "city", required: true }, { name: "state" }];

describe("parseMcpSlash", () => {
  it("takes /mcp__… forms only, the rest as arguments", () => {
    expect(parseMcpSlash("/mcp__everything__args-prompt Paris TX")).toEqual({ name: "mcp__everything__args-prompt", args: "Paris TX" });
    expect(parseMcpSlash("  /mcp__s__p")).toEqual({ name: "mcp__s__p", args: "" });
    expect(parseMcpSlash("/mcp__s__p\nline two")).toEqual({ name: "mcp__s__p", args: "line two" });
    expect(parseMcpSlash("/review x")).toBeUndefined();
    expect(parseMcpSlash("please /mcp__s__p")).toBeUndefined();
    expect(parseMcpSlash("/mcp__s__p/etc")).toBeUndefined();
  });
});

describe("mapArgs", () => {
  it("positional in declared order; the last argument takes the rest", () => {
    expect(mapArgs(CITY, "Paris Texas")).toEqual({ args: { city: "Paris", state: "Texas" } });
    expect(mapArgs(CITY, "Paris")).toEqual({ args: { city: "Paris" } });
    expect(mapArgs(CITY, "Paris New Mexico")).toEqual({ args: { city: "Paris", state: "New Mexico" } });
    expect(mapArgs([{ name: "q", required: true }], "what is up")).toEqual({ args: { q: "what is up" } });
  });

  it("double quotes group words", () => {
    expect(splitWords('"New York" NY "a \\"b\\""')).toEqual(["New York", "NY", 'a "b"']);
    expect(mapArgs(CITY, '"New York" NY')).toEqual({ args: { city: "New York", state: "NY" } });
  });

  it("key=value when every word names a declared argument", () => {
    expect(mapArgs(CITY, "state=TX city=Austin")).toEqual({ args: { city: "Austin", state: "TX" } });
    expect(mapArgs(CITY, '"city=Salt Lake City"')).toEqual({ args: { city: "Salt Lake City" } });
    // not every word is key=value: positional, the = kept
    expect(mapArgs(CITY, "city=Austin Texas")).toEqual({ args: { city: "city=Austin", state: "Texas" } });
    // an undeclared key: positional
    expect(mapArgs(CITY, "town=Austin")).toEqual({ args: { city: "town=Austin" } });
  });

  it("missing required arguments and arguments to a prompt that takes none are errors", () => {
    expect(mapArgs(CITY, "")).toEqual({ error: "missing required argument city (usage: <city> [state])" });
    expect(mapArgs(CITY, "state=TX")).toMatchObject({ error: expect.stringMatching(/missing required argument city/) });
    expect(mapArgs([], "x")).toEqual({ error: "it takes no arguments" });
    expect(mapArgs([], "")).toEqual({ args: {} });
    expect(usage([])).toBe("(no arguments)");
  });
});

describe("messagesText", () => {
  it("joins the messages' text in order, embedded resources with their text, other content named", () => {
    expect(
      messagesText([
        { role: "user", content: { type: "text", text: "one" } },
        { role: "user", content: { type: "resource", resource: { uri: "demo://a", text: "body" } } },
        { role: "assistant", content: { type: "image" } },
      ]),
    ).toBe("one\n\n[resource demo://a]\nbody\n\n[image content]");
  });
});

describe("promptCatalog (the service's prompts())", () => {
  it("answers from a cache refreshed in the background, throttled", async () => {
    let lists = 0;
    const conn = {
      name: "my server",
      has: (c: string) => c === "prompts",
      sdk: {
        listPrompts: async () => {
          lists += 1;
          return { prompts: [{ name: "args-prompt", description: "two args", arguments: [{ name: "city", required: true }, { name: "state" }] }] };
        },
      },
    };
    const manager = { isStarted: true, connected: () => [conn] } as unknown as McpManager;
    const prompts = promptCatalog(manager, 60_000);
    expect(prompts()).toEqual([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(prompts()).toEqual([{ name: "mcp__my_server__args-prompt", server: "my server", description: "two args", usage: "<city> [state]" }]);
    expect(lists).toBe(1);
  });
});
