// An example model tool for oceancode, in plain JavaScript (no build step).
//
// The engine runs every call of it through the same gates as the built-in tools: the permission rules
// ("word_count secret/* deny", "word_count * ask"), hooks (a PreToolUse hook matching "WordCount" or
// "word_count") and the tool-result hooks. Its ruleSubject is what rules match and what an ask shows.
import fs from "node:fs/promises";
import path from "node:path";

/** @typedef {import("oceancode/api/engine").ToolDefinition} ToolDefinition */
/** @typedef {import("oceancode/kernel").ExtensionContext} ExtensionContext */

/** @type {ToolDefinition} */
export const wordCount = {
  name: "word_count",
  claudeName: "WordCount",
  kind: "read",
  description: "Count the lines, words and characters of a text file. Input: path (relative to the project, or absolute).",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string", description: "the file to count" } },
    required: ["path"],
    additionalProperties: false,
  },
  // rules match the path relative to the project, like the built-in file tools
  ruleSubject: (input, cwd) => path.relative(cwd, path.resolve(cwd, String(input.path))) || ".",
  // hooks see Claude Code's field names
  toClaudeInput: (input, cwd) => ({ file_path: path.resolve(cwd, String(input.path)) }),
  fromClaudeInput: (input) => ({ path: String(input.file_path ?? input.path) }),
  async run(input, ctx) {
    if (typeof input.path !== "string" || input.path === "") return { content: "word_count: give a path", isError: true };
    if (ctx.signal.aborted) return { content: "word_count: cancelled", isError: true };
    const file = path.resolve(ctx.cwd, input.path);
    let text;
    try {
      text = await fs.readFile(file, { encoding: "utf8", signal: ctx.signal });
    } catch (e) {
      return { content: `word_count: cannot read ${input.path}: ${e.code ?? e.message}`, isError: true };
    }
    const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const words = text.split(/\s+/).filter(Boolean).length;
    const chars = [...text].length;
    return { content: `${input.path}: ${lines} lines, ${words} words, ${chars} characters`, metadata: { lines, words, chars } };
  },
};

export default {
  /** @param {ExtensionContext} ctx */
  activate(ctx) {
    /** @type {import("oceancode/api/engine").EngineService} */
    const engine = ctx.services.get("engine");
    engine.tools.register(wordCount);
  },
};
