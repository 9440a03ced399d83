/** `oceancode export <id> (--md | --atif) [--out <path>|-]`: settles the writers first, so the step that just ended is included. */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { CommandIO, ExtensionContext } from "../../kernel/api.js";
import { agentVersion, renderExport } from "./render.js";
import { exportRoutes } from "./routes.js";

export const EXPORT_USAGE = "usage: oceancode export (--md | --atif) [--out <path>|-] [--db <path>] [--directory <dir>] <session-id>";

export default {
  activate(ctx: ExtensionContext) {
    const deps = () => ({ ledger: ctx.services.tryGet("ledger"), engine: ctx.services.tryGet("engine") });
    const routes = ctx.services.tryGet("routes");
    if (routes) {
      const sources = () => ({ storage: ctx.services.get("storage"), ...deps(), agentVersion: agentVersion(ctx.dir) });
      for (const r of exportRoutes(sources)) routes.add(r, ctx.id);
    }
    ctx.registerCommand("export", async (argv: string[], io: CommandIO) => {
      const bad = (msg: string) => {
        io.stderr.write(`oceancode export: ${msg}\n${EXPORT_USAGE}\n`);
        return 2;
      };
      let values: Record<string, string | boolean | undefined>;
      let positionals: string[];
      try {
        ({ values, positionals } = parseArgs({
          args: argv,
          options: { md: { type: "boolean" }, atif: { type: "boolean" }, out: { type: "string", short: "o" }, db: { type: "string" }, directory: { type: "string" }, dir: { type: "string" }, help: { type: "boolean", short: "h" } },
          allowPositionals: true,
          strict: true,
        }));
      } catch (e) {
        return bad((e as Error).message);
      }
      if (values.help) {
        io.stdout.write(`${EXPORT_USAGE}\n`);
        return 0;
      }
      if (values.md === values.atif) return bad("pass exactly one of --md or --atif");
      if (positionals.length !== 1) return bad(positionals.length === 0 ? "a session id is required" : `one session id only (got ${positionals.join(" ")})`);
      const id = positionals[0]!;
      const storage = ctx.services.get("storage");
      const r = await renderExport(id, values.md ? "md" : "atif", { storage, ...deps(), agentVersion: agentVersion(ctx.dir) });
      if (!r) {
        io.stderr.write(`oceancode export: no session '${id}' in ${storage.dbPath} (list them with oceancode sessions)\n`);
        return 1;
      }
      const text = r.format === "md" ? r.text : `${JSON.stringify(r.trajectory, null, 2)}\n`;
      const out = typeof values.out === "string" ? values.out : "-";
      if (out === "-") io.stdout.write(text);
      else {
        const file = path.resolve(out);
        try {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, text);
        } catch (e) {
          io.stderr.write(`oceancode export: cannot write ${file}: ${(e as Error).message}\n`);
          return 1;
        }
        io.stderr.write(`exported ${id} to ${file}\n`);
      }
      return 0;
    });
  },
};
