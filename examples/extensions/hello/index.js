// A third-party oceancode extension: plain ESM, no build step, written only against the public API
// (the ExtensionContext the kernel passes to activate). Copy this folder to ~/.oceancode/extensions/hello/.

/** @typedef {import("oceancode/kernel/api").ExtensionContext} ExtensionContext */
/** @typedef {import("oceancode/kernel/api").CommandIO} CommandIO */

import { parseArgs } from "node:util";
import { TooManyNames } from "./errors.js";

const USAGE = "usage: oceancode hello [name]";

export default {
  /** @param {ExtensionContext} ctx */
  activate(ctx) {
    ctx.registerCommand(
      "hello",
      /** @param {string[]} argv @param {CommandIO} io */
      async (argv, io) => {
        let name;
        try {
          const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
          if (positionals.length > 1) throw TooManyNames({ count: positionals.length });
          name = positionals[0] ?? "world";
        } catch (e) {
          io.stderr.write(`oceancode hello: ${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
          return 2;
        }
        // the section is validated against config.schema.json before any code runs; the default fills gaps
        const greeting = ctx.config.section("hello").greeting ?? "hello";
        io.stdout.write(`${greeting}, ${name}\n`);
        return 0;
      },
    );
  },
};
