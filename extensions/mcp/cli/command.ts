/**
 * `oceancode mcp add | list | enable | disable | remove | doctor` — all but doctor read and edit config
 * files and trust.json only (nothing is spawned or dialed); doctor dials through the client's probe.
 */
import path from "node:path";
import type { CommandIO } from "../../../kernel/api.js";
import { type ProjectTrust } from "../../trust/api.js";
import { isTrustFileError } from "../../trust/kit.js";
import type { DoctorRow, ServerEntry } from "../api.js";
import { resolveServers, type ResolveInput } from "../sources/index.js";
import { printable, SERVER_NAME } from "../sources/shapes.js";
import { pairs, parseMcpArgs, type McpArgs } from "./args.js";
import { addServer, declaredAt, removeServer, scopeTarget, type Scope } from "./edit.js";
import { formatList, listJson } from "./format.js";
import { McpEditRefused } from "../errors.js";

export const MCP_USAGE = [
  "usage: oceancode mcp [--root <dir>] [--home <h>] list [--json]",
  "       oceancode mcp add <name> (--command <cmd> [--arg <a>]... [--env K=V]... | --url <url> [--header K=V]...) [--scope local|project|user]",
  "       oceancode mcp enable|disable <name>",
  "       oceancode mcp remove <name> [--scope local|project|user]",
  "       oceancode mcp login <name> [--port <p>] [--no-browser]   (OAuth for a remote server)",
  "       oceancode mcp logout <name>",
  "       oceancode mcp doctor",
].join("\n");

export interface McpCliDeps {
  /** everything the resolver needs for this project and home (plugins, requirements, config files) */
  resolveInput(project: string, home: string): ResolveInput;
  /** change this project's record in trust.json (the trust service's update) */
  updateTrust(home: string, project: string, change: (t: ProjectTrust) => void): ProjectTrust;
  /** dial every ready entry with a short budget (held ones read their hold, nothing dialed) */
  doctor?(entries: ServerEntry[]): Promise<DoctorRow[]>;
  /** `login`: the OAuth flow for one ready remote entry (cli/login.ts); absent without a credentials store */
  login?(entry: ServerEntry, opts: { port?: number; browser: boolean }, io: CommandIO): Promise<number>;
  /** `logout`: forget a server's stored login; true when there was one */
  logout?(name: string): boolean;
}

const SCOPES: readonly Scope[] = ["local", "project", "user"];

export async function mcpCommand(argv: string[], io: CommandIO, deps: McpCliDeps): Promise<number> {
  const bad = (why: string) => {
    io.stderr.write(`oceancode mcp: ${printable(why)}\n${MCP_USAGE}\n`);
    return 2;
  };
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(`${MCP_USAGE}\n`);
    return 0;
  }
  const p = parseMcpArgs(argv);
  if ("error" in p) return bad(p.error);
  const one = (f: string) => p.values.get(f)?.[0];
  const root = path.resolve(io.project, one("--root") ?? ".");
  const home = path.resolve(one("--home") ?? io.home);
  const [verb, name, ...extra] = p.positional;
  const scopeFlag = one("--scope");
  if (scopeFlag !== undefined && !SCOPES.includes(scopeFlag as Scope)) return bad(`--scope must be local, project or user, not '${scopeFlag}'`);
  const only = (allowed: string[]) => {
    const stray = [...p.values.keys(), ...p.switches].filter((f) => !["--root", "--home", ...allowed].includes(f));
    return stray.length ? `${verb} does not take ${stray.join(", ")}` : undefined;
  };
  const warnings: string[] = [];
  const resolve = (): ServerEntry[] => resolveServers({ ...deps.resolveInput(root, home), warn: (m) => warnings.push(m) });
  const flushWarnings = () => {
    for (const w of warnings) io.stderr.write(`oceancode mcp: warning: ${printable(w, 400)}\n`);
  };
  try {
    if (verb === "list" || verb === undefined) {
      const stray = only(["--json"]);
      if (stray || name !== undefined) return bad(stray ?? `list takes no name`);
      const entries = resolve();
      flushWarnings();
      if (p.switches.has("--json")) io.stdout.write(`${JSON.stringify(listJson(entries), null, 2)}\n`);
      else if (entries.length) io.stdout.write(`${formatList(entries).join("\n")}\n`);
      else io.stderr.write("oceancode mcp: no MCP servers are configured here\n");
      return 0;
    }
    if (verb === "doctor") {
      const stray = only([]);
      if (stray || name !== undefined) return bad(stray ?? "doctor takes no name");
      if (!deps.doctor) return bad("doctor needs the MCP client, which is not loaded");
      const entries = resolve();
      flushWarnings();
      if (!entries.length) {
        io.stderr.write("oceancode mcp: no MCP servers are configured here\n");
        return 0;
      }
      const rows = await deps.doctor(entries);
      for (const r of rows) io.stdout.write(`${formatDoctor(r)}\n`);
      const failed = rows.filter((r) => r.status === "failed" || r.status === "needs-auth").length;
      io.stdout.write(failed ? `DOCTOR_FAIL failed=${failed}\n` : "DOCTOR_OK\n");
      return failed ? 1 : 0;
    }
    if (!["add", "remove", "enable", "disable", "login", "logout"].includes(verb)) return bad(`unknown subcommand '${verb}'`);
    if (name === undefined || extra.length > 0) return bad(`${verb} takes exactly one <name>`);
    if (!SERVER_NAME.test(name)) return bad(`'${name}' is not a server name (letters, digits, '.', '_' or '-'; at most 64)`);
    if (verb === "login") {
      const stray = only(["--port", "--no-browser"]);
      if (stray) return bad(stray);
      const port = one("--port");
      if (port !== undefined && !/^\d{1,5}$/.test(port)) return bad(`--port must be a port number, not '${port}'`);
      if (!deps.login) return bad("login needs the credentials store (the auth extension), which is not loaded");
      const entry = loginTarget(resolve(), name);
      flushWarnings();
      if (typeof entry === "string") {
        io.stderr.write(`oceancode mcp: ${printable(entry, 400)}\n`);
        return 1;
      }
      return deps.login(entry, { ...(port !== undefined ? { port: Number(port) } : {}), browser: !p.switches.has("--no-browser") }, io);
    }
    if (verb === "logout") {
      const stray = only([]);
      if (stray) return bad(stray);
      if (!deps.logout) return bad("logout needs the credentials store (the auth extension), which is not loaded");
      io.stdout.write(deps.logout(name) ? `logged out of ${name}\n` : `no stored login for ${name}\n`);
      return 0;
    }
    if (verb === "add") return add(p, name, root, home, (scopeFlag ?? "project") as Scope, io, bad, only);
    if (verb === "remove") {
      const stray = only(["--scope"]);
      if (stray) return bad(stray);
      return remove(resolve(), name, root, scopeFlag as Scope | undefined, io, flushWarnings);
    }
    const stray = only([]);
    if (stray) return bad(stray);
    const on = verb === "enable";
    deps.updateTrust(home, root, (t) => {
      t.disabled_mcp = t.disabled_mcp.filter((n) => n !== name);
      t.enabled_mcp = t.enabled_mcp.filter((n) => n !== name);
      (on ? t.enabled_mcp : t.disabled_mcp).push(name);
    });
    const known = resolve().some((e) => e.name === name);
    io.stdout.write(`${on ? "enabled" : "disabled"} ${name}\n`);
    if (!known) io.stderr.write(`oceancode mcp: note: no server named '${name}' is configured here yet; the setting applies when one is\n`);
    return 0;
  } catch (e) {
    if (McpEditRefused.is(e) || isTrustFileError(e)) {
      io.stderr.write(`oceancode mcp: ${printable((e as Error).message, 400)}\n`);
      return 1;
    }
    throw e;
  }
}

/** The copy of `name` a login is for: the running (not shadowed) remote one; else why there is none. */
export function loginTarget(entries: ServerEntry[], name: string): ServerEntry | string {
  const copies = entries.filter((e) => e.name === name);
  if (!copies.length) return `no server named '${name}' is configured here`;
  const live = copies.find((e) => e.hold !== "shadowed") ?? copies[0]!;
  if (live.config.type === "stdio") return `'${name}' is a stdio server; login is for remote (http or sse) servers`;
  if (live.hold === "untrusted") return `'${name}' is held untrusted (${live.tier}); trust it first: oceancode trust mcp ${name} on`;
  if (live.hold === "refused") return `'${name}' is refused: ${live.reason ?? "not allowed by the requirements"}`;
  return live;
}

function add(p: McpArgs, name: string, root: string, home: string, scope: Scope, io: CommandIO, bad: (w: string) => number, only: (a: string[]) => string | undefined): number {
  const command = p.values.get("--command")?.[0];
  const url = p.values.get("--url")?.[0];
  if ((command === undefined) === (url === undefined)) return bad("add takes exactly one of --command <cmd> or --url <url>");
  let entry: Record<string, unknown>;
  if (command !== undefined) {
    const stray = only(["--command", "--arg", "--env", "--scope"]);
    if (stray) return bad(stray);
    if (command.trim() === "") return bad("--command must not be empty");
    const env = pairs(p.values.get("--env") ?? [], "--env");
    if ("error" in env && typeof env.error === "string") return bad(env.error);
    entry = { command, args: p.values.get("--arg") ?? [], env };
  } else {
    const stray = only(["--url", "--header", "--scope"]);
    if (stray) return bad(stray);
    if (!/^https?:\/\/\S+$/i.test(url!)) return bad(`--url must be an http(s) URL, not '${url}'`);
    const headers = pairs(p.values.get("--header") ?? [], "--header", true);
    if ("error" in headers && typeof headers.error === "string") return bad(headers.error);
    entry = { type: "http", url, headers };
  }
  const t = scopeTarget(scope, root, home);
  addServer(t.file, t.at, name, entry);
  io.stdout.write(`added ${name} (${command !== undefined ? "stdio" : "remote"}, ${scope}) to ${printable(t.file)}\n`);
  if (scope === "project") io.stderr.write(`oceancode mcp: note: a project server is held untrusted until you run: oceancode trust mcp ${name} on\n`);
  return 0;
}

function remove(entries: ServerEntry[], name: string, root: string, scope: Scope | undefined, io: CommandIO, flushWarnings: () => void): number {
  flushWarnings();
  const copies = entries.filter((e) => e.name === name && (scope === undefined || e.tier === scope));
  if (copies.length === 0) {
    io.stderr.write(`oceancode mcp: no server named '${name}'${scope ? ` at the ${scope} tier` : ""} is declared here\n`);
    return 1;
  }
  if (copies.length > 1) {
    const where = copies.map((c) => `  ${c.tier}  ${printable(c.source)}`).join("\n");
    io.stderr.write(`oceancode mcp: '${name}' is declared in more than one file; pass --scope local|project|user:\n${where}\n`);
    return 1;
  }
  const c = copies[0]!;
  const at = c.tier === "plugin" ? undefined : declaredAt(c.source, c.tier, root);
  if (!at) {
    io.stderr.write(`oceancode mcp: '${name}' comes from ${c.plugin ? `plugin ${printable(c.plugin)}` : printable(c.source)}; it cannot be removed here (oceancode mcp disable ${name} holds it)\n`);
    return 1;
  }
  if (!removeServer(c.source, at, name)) {
    io.stderr.write(`oceancode mcp: '${name}' was not found in ${printable(c.source)}; nothing was changed\n`);
    return 1;
  }
  io.stdout.write(`removed ${name} from ${printable(c.source)}\n`);
  return 0;
}

/** `name  reachable (3 tools, 120 ms)` / `name  failed: why` / `name  shadowed` — one line per entry */
export function formatDoctor(r: DoctorRow): string {
  const held = r.reason && (r.reason === r.status || r.reason.startsWith(`${r.status}:`)) ? r.reason : r.reason ? `${r.status}: ${r.reason}` : r.status;
  const what = r.status === "reachable" ? `reachable (${r.tools ?? 0} tools${r.ms !== undefined ? `, ${r.ms} ms` : ""})` : held;
  return printable(`${r.name}  ${what}`, 400);
}
