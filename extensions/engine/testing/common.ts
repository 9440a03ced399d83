/**
 * Shared pieces of the conformance suites (`oceancode/testing`): the provider error codes, reading a
 * thrown error's code, and a stand-in ExtensionContext for activating an extension outside the kernel.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createKernelHooks, ResolvedConfig, type CommandHandler, type ExtensionContext, type Logger, type Manifest, type SlashHandler } from "../../../kernel/api.js";

/** The codes a provider error carries (a thrown object with a string `code`; optional `status`, `retryAfterMs`). */
export const PROVIDER_ERROR_CODES = ["rate_limited", "overloaded", "server", "network", "prompt_too_long", "auth", "bad_request", "aborted"] as const;
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

/** A thrown provider error's code (the contract: a string `code`), or undefined when it carries none. */
export function providerErrorCode(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const { code } = e as { code?: unknown };
  return typeof code === "string" ? code : undefined;
}

/** A fresh temporary directory (removed by the caller, or left in the OS temp dir). */
export function tempDir(prefix = "oc-conformance-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestContextOptions {
  id: string;
  /** the extension's folder (manifest.json is read from it when present) */
  dir?: string;
  /** services it may resolve */
  services?: Record<string, unknown>;
  /** the resolved config's value, e.g. { "json-store": { dir: "/tmp/x" } } */
  config?: Record<string, unknown>;
  /** root of home, project and the XDG dirs (default: a fresh temp dir) */
  root?: string;
  env?: NodeJS.ProcessEnv;
}

/** An ExtensionContext for activating one extension in a test, plus what it registered. */
export interface TestContext extends ExtensionContext {
  /** services the extension provided */
  readonly provided: Map<string, unknown>;
  readonly commands: Map<string, CommandHandler>;
  readonly slashes: Map<string, SlashHandler>;
  readonly logged: Array<{ level: keyof Logger; msg: string }>;
  /** run the kernel's shutdown hook (what the host does before exit) */
  shutdown(): Promise<void>;
}

export function testContext(opts: TestContextOptions): TestContext {
  const root = opts.root ?? tempDir();
  const dir = opts.dir ?? root;
  let manifest = { id: opts.id, version: "0.0.0", kernel: "*", main: "index.js" } as Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
  } catch {
    /* no manifest: a minimal one */
  }
  const paths = {
    home: path.join(root, "home"),
    project: path.join(root, "project"),
    configDir: path.join(root, "config", "oceancode"),
    dataDir: path.join(root, "data", "oceancode"),
    stateDir: path.join(root, "state", "oceancode"),
    userOcDir: path.join(root, "home", ".oceancode"),
  };
  for (const p of [paths.home, paths.project]) fs.mkdirSync(p, { recursive: true });
  const services = new Map(Object.entries(opts.services ?? {}));
  const provided = new Map<string, unknown>();
  const commands = new Map<string, CommandHandler>();
  const slashes = new Map<string, SlashHandler>();
  const logged: Array<{ level: keyof Logger; msg: string }> = [];
  const log = (level: keyof Logger) => (msg: string) => void logged.push({ level, msg });
  const kernelHooks = createKernelHooks();
  const config = new ResolvedConfig(opts.config ?? {}, new Map(), [], []);
  const ctx: TestContext = {
    id: opts.id,
    tier: "user",
    dir,
    manifest,
    paths,
    env: opts.env ?? {},
    log: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") },
    config,
    kernelHooks,
    services: {
      get<T>(name: string): T {
        if (!services.has(name)) throw new Error(`testContext: no service '${name}' given`);
        return services.get(name) as T;
      },
      tryGet<T>(name: string): T | undefined {
        return services.get(name) as T | undefined;
      },
      has: (name: string) => services.has(name),
    },
    provide(name, value) {
      provided.set(name, value);
    },
    registerCommand(name, handler) {
      commands.set(name, handler);
    },
    registerSlash(name, handler) {
      slashes.set(name, handler);
    },
    // the context's own slash commands (no other extension is loaded here)
    async runSlash(name, args, host) {
      const h = slashes.get(name);
      if (!h) return false;
      await h(args, host);
      return true;
    },
    registerReader() {},
    // outside a kernel there is no hook error sink to bind to: tap failures surface as thrown errors
    bindHooks: (hooks) => hooks,
    walk: () => [],
    activate: async () => {},
    contributions: () => [],
    requirements: () => undefined,
    introspect: () => {
      throw new Error("testContext: introspect() is not available outside the kernel");
    },
    isTrusted: async () => true,
    // outside a kernel the sink's writer records like log does
    setLogSink: () => (level, msg) => void logged.push({ level: level === "trace" ? "debug" : level, msg }),
    provided,
    commands,
    slashes,
    logged,
    shutdown: () => kernelHooks.shutdown.call({ reason: "test" }),
  };
  return ctx;
}
