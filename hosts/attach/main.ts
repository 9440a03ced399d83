/**
 * `oceancode attach <url>`: Ocean pager against a running `oceancode serve` instead of an embedded engine.
 * The session is created (or with --session, opened) on the server, prompts run there with the server's
 * keys, config and extensions; the pager shows its event stream and answers its questions. Basic auth
 * from OC_SERVER_USERNAME / OC_SERVER_PASSWORD. Slash commands run in this process (e.g. /help, /models
 * picks the model of the next session, not of the server's running one).
 */
import type { Kernel } from "../boot.js";
import type { CommandIO } from "../../kernel/api.js";
import { OceancodeClient } from "../../extensions/serve/client/index.js";
import { visibleLine } from "../terminal/sanitize.js";
import { commandHelp } from "../cli/help.js";
import { flagHint } from "../cli/suggest.js";
import { ATTACH_FLAGS, ATTACH_SUMMARY, ATTACH_USAGE_LINE } from "./args.js";
import { RemoteEngine } from "./remote-engine.js";



export async function main(kernel: Kernel, argv: string[], io: CommandIO, opts: { model?: string }): Promise<number> {
  const usage = (why: string) => {
    io.stderr.write(`oceancode attach: ${visibleLine(why)}\nusage: ${ATTACH_USAGE_LINE}\n`);
    return 2;
  };
  let url: string | undefined;
  let session: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--help" || a === "-h") {
      io.stdout.write(`${commandHelp({ name: "attach", usage: ATTACH_USAGE_LINE, summary: ATTACH_SUMMARY }, ATTACH_FLAGS)}\n`);
      return 0;
    }
    if (a === "--session") {
      session = argv[++i];
      if (!session) return usage("--session needs a session id");
    } else if (a.startsWith("-")) return usage(`unknown option '${a}'${flagHint(a, ATTACH_FLAGS)}`);
    else if (url === undefined) url = a;
    else return usage(`unexpected argument '${a}'`);
  }
  if (!url) return usage("the server's URL is missing (e.g. http://127.0.0.1:4096)");
  if (!/^https?:\/\/[^\s/]+/i.test(url)) return usage(`'${url}' is not an http(s) URL`);
  const api = new OceancodeClient({ baseUrl: url, ...(io.env.OC_SERVER_PASSWORD ? { password: io.env.OC_SERVER_PASSWORD, username: io.env.OC_SERVER_USERNAME || "oceancode" } : {}) });
  // said before the screen is taken: a server that is not there, or refuses us
  try {
    await api.health();
  } catch (e) {
    io.stderr.write(`oceancode attach: cannot reach ${visibleLine(url)}: ${visibleLine((e as Error).message)}\n`);
    return 1;
  }
  const pager = (await import("../pager/main.js")) as typeof import("../pager/main.js");
  return pager.main(kernel, [], io, {
    ...(opts.model ? { model: opts.model } : {}),
    remote: { engine: (local) => new RemoteEngine(api, local, session), label: url },
  });
}
