/** `oceancode serve`: boot the session extensions, start the server, run until SIGTERM/SIGINT, then drain and stop. */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import { DEFAULT_HOST, DEFAULT_PORT, type ServeService, type ServerHandle } from "./api.js";
import { checkBind, credentialsFrom } from "./auth.js";
import { ServeUsage } from "./errors.js";

export const SERVE_USAGE = "usage: oceancode serve [--port 4096] [--host 127.0.0.1] [--web] [--db <file>] [--directory <dir>] [-v]";

export function parseServeArgs(argv: string[]): { host: string; port: number; web: boolean } {
  const { values, positionals } = parseArgs({ args: argv, options: { port: { type: "string" }, host: { type: "string" }, web: { type: "boolean" } }, strict: true, allowPositionals: true });
  if (positionals.length) throw ServeUsage({ message: `unexpected argument '${positionals[0]}'` });
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw ServeUsage({ message: `--port must be a port number (0-65535; 0 picks a free one), not '${values.port}'` });
  const host = values.host ?? DEFAULT_HOST;
  if (!host) throw ServeUsage({ message: "--host needs a value" });
  return { host, port, web: values.web === true };
}

/** Resolves on the first SIGTERM or SIGINT (a second one keeps what is unfinished and exits at once). */
function stopSignal(io: CommandIO, server: () => ServerHandle | undefined): Promise<string> {
  return new Promise((resolve) => {
    let seen = false;
    const on = (sig: NodeJS.Signals) => {
      if (seen) {
        server()?.keepUnfinished?.();
        io.stderr.write(`oceancode serve: ${sig} again: exiting now (the unfinished accepted prompts are kept for the next start)\n`);
        process.exit(1);
      }
      seen = true;
      resolve(sig);
    };
    process.on("SIGTERM", on);
    process.on("SIGINT", on);
  });
}

/** `boot(web)`: the session extensions, and with --web the web client's (it adds its routes before the server starts) */
export async function serveCommand(argv: string[], io: CommandIO, boot: (web: boolean) => Promise<ServeService | string>, name = "serve"): Promise<number> {
  let args;
  try {
    args = parseServeArgs(argv);
  } catch (e) {
    io.stderr.write(`oceancode ${name}: ${(e as Error).message}\n${name === "serve" ? SERVE_USAGE : `usage: oceancode ${name} [--port 4096] [--host 127.0.0.1] [--db <file>] [--directory <dir>] [-v]`}\n`);
    return 2;
  }
  try {
    checkBind(args.host, credentialsFrom(io.env)); // refused before anything boots
  } catch (e) {
    io.stderr.write(`oceancode serve: ${(e as Error).message}\n`);
    return 1;
  }
  const service = await boot(args.web);
  if (typeof service === "string") {
    io.stderr.write(`oceancode serve: ${service}\n`);
    return 1;
  }
  let server: ServerHandle | undefined;
  const stopped = stopSignal(io, () => server);
  try {
    server = await service.start({ host: args.host, port: args.port, env: io.env });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    io.stderr.write(`oceancode serve: ${code === "EADDRINUSE" ? `${args.host}:${args.port} is already in use (pick another --port, or 0 for any free one)` : (e as Error).message}\n`);
    return 1;
  }
  io.stderr.write(`oceancode serve: listening on ${server.url}${args.web ? ` (the web client: ${server.url}/)` : ""}\n`);
  // one JSON line a script (or a test) waits for: the bound port, also when --port 0 picked it
  io.stdout.write(`${JSON.stringify({ type: "listening", url: server.url, host: server.host, port: server.port })}\n`);
  const sig = await stopped;
  io.stderr.write(`oceancode serve: ${sig}: stopping: new requests get 503; the accepted prompts finish first (serve.shutdown_timeout_s), what is left then is kept for the next start (again to exit now)\n`);
  await server.close();
  io.stderr.write("oceancode serve: stopped\n");
  return 0;
}
