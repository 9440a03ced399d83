/**
 * `oceancode mcp` (add, list, enable, disable, remove, login, logout, doctor). The extension's index
 * registers the command and imports this module when it runs (a session never loads the CLI's code).
 */
import path from "node:path";
import { writeFileAtomic, type CommandIO, type ExtensionContext } from "../../../kernel/api.js";
import { type ProjectTrust, type TrustService } from "../../trust/api.js";
import { emptyTrust, TrustFileInvalid } from "../../trust/kit.js";
import { resolveInputFromContext } from "../sources/context.js";
import { readTrust } from "../sources/index.js";
import { isObj } from "../sources/shapes.js";
import type { DoctorRow, ServerEntry } from "../api.js";
import { mcpCommand, type McpCliDeps } from "./command.js";
import fs from "node:fs";
import { spawn } from "node:child_process";
import type { CredentialsService } from "../../auth/api.js";
import { expandServer } from "../sources/expand.js";
import { printable } from "../sources/shapes.js";
import { recordId } from "../client/oauth.js";
import { McpLoginFailed } from "../errors.js";

export interface RegisterDeps {
  /** the trust service (optional: without it trust.json is edited here, atomically) */
  trust?: TrustService;
  /** `mcp doctor`: dial each ready entry with a short budget (the client's doctor) */
  doctor?: (entries: ServerEntry[]) => Promise<DoctorRow[]>;
  /** the credentials store (auth.json), where `mcp login` keeps OAuth tokens */
  credentials?: CredentialsService;
}

/** Open a URL in the user's browser: only http(s), as one argv word (never through a shell); errors ignored. */
function openBrowser(url: URL, env: NodeJS.ProcessEnv): void {
  if (url.protocol !== "https:" && url.protocol !== "http:") return;
  const [cmd, args] = process.platform === "darwin" ? ["open", [url.href]] : process.platform === "win32" ? ["rundll32", ["url.dll,FileProtocolHandler", url.href]] : [env.BROWSER || "xdg-open", [url.href]];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // no browser here: the printed URL is the way
  }
}

function loginWith(ctx: ExtensionContext, credentials: CredentialsService): NonNullable<McpCliDeps["login"]> {
  return async (entry, opts, io) => {
    const { config } = expandServer(entry.config, ctx.env);
    if (config.type === "stdio") return 1;
    const { login } = await import("../client/login.js");
    const seconds = Number(ctx.env.OC_MCP_LOGIN_SECONDS);
    try {
      await login({
        server: entry.name,
        url: config.url,
        store: credentials,
        ...(opts.port !== undefined ? { port: opts.port } : {}),
        timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 300) * 1000,
        onAuthorize: (u, redirectUrl) => {
          io.stdout.write(`Open this URL in a browser to authorize oceancode for ${entry.name}:\n  ${printable(u.href, 4000)}\n`);
          io.stdout.write(`Waiting for the browser to come back to ${redirectUrl} (Ctrl-C cancels) ...\n`);
          if (opts.browser && process.stdout.isTTY && !ctx.env.OC_NO_BROWSER) openBrowser(u, ctx.env);
        },
      });
    } catch (e) {
      const why = McpLoginFailed.is(e) ? e.message : `unexpected error: ${e instanceof Error ? e.message : String(e)}`;
      io.stderr.write(`oceancode mcp: login to ${entry.name} failed: ${printable(why, 600)}\n`);
      return 1;
    }
    io.stdout.write(`logged in to ${entry.name}: tokens stored in ${printable(credentials.file)}\n`);
    return 0;
  };
}

/** trust.json edited directly (another --home, or no trust service): same shape, atomic, a corrupt file refused. */
function updateTrustFile(home: string, project: string, change: (t: ProjectTrust) => void): ProjectTrust {
  const file = path.join(home, ".oceancode", "trust.json");
  let all: Record<string, unknown> = {};
  try {
    const text = fs.readFileSync(file, "utf8");
    if (text.trim() !== "") {
      const v = JSON.parse(text) as unknown;
      if (!isObj(v)) throw TrustFileInvalid({ file, detail: "the top level must be an object keyed by project path" });
      all = v;
    }
  } catch (e) {
    if (TrustFileInvalid.is(e)) throw e;
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw TrustFileInvalid({ file, detail: (e as Error).message });
  }
  const key = path.resolve(project);
  const t = { ...emptyTrust(), ...readTrust(path.dirname(file), key) };
  change(t);
  all[key] = { ...(isObj(all[key]) ? all[key] : {}), ...t };
  writeFileAtomic(file, `${JSON.stringify(all, null, 2)}\n`);
  return t;
}

export function mcpCliDeps(ctx: ExtensionContext, deps: RegisterDeps = {}): McpCliDeps {
  return {
    resolveInput: (project, home) => ({ ...resolveInputFromContext(ctx, project, home), warn: () => undefined }),
    updateTrust: (home, project, change) =>
      deps.trust && path.resolve(home) === ctx.paths.home ? deps.trust.update(project, change) : updateTrustFile(home, project, change),
    ...(deps.doctor ? { doctor: deps.doctor } : {}),
    ...(deps.credentials ? { login: loginWith(ctx, deps.credentials), logout: (name: string) => deps.credentials!.setRecord(recordId(name), undefined) } : {}),
  };
}

/** Run `oceancode mcp <argv>` for this extension's context. */
export function runMcpCommand(ctx: ExtensionContext, deps: RegisterDeps, argv: string[], io: CommandIO): Promise<number> {
  return mcpCommand(argv, io, mcpCliDeps(ctx, deps));
}
