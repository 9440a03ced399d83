/** The auth extension: the credentials service and the `key` / `auth` commands. */
import type { ExtensionContext } from "../../kernel/api.js";
import type { CredentialsService } from "./api.js";
import { createCredentials } from "./credentials.js";
import { authCommand, keyCommand, type CommandDeps } from "./commands.js";
import type { RouteRegistry } from "../serve/api.js";
import { authRoutes } from "./routes.js";

/** Providers whose keys this extension knows even when their manifest is not installed. */
const BUILTIN_PROVIDERS = ["anthropic", "openai"];

export default {
  activate(ctx: ExtensionContext) {
    const credentials: CredentialsService = createCredentials({ dataDir: ctx.paths.dataDir, env: ctx.env, warn: (m) => ctx.log.warn(m) });
    ctx.provide<CredentialsService>("credentials", credentials);
    const deps: CommandDeps = {
      credentials,
      providers() {
        const ids = new Set(BUILTIN_PROVIDERS);
        for (const c of ctx.contributions<string[]>("providers")) for (const p of c.value) if (p !== "scripted" && p !== "*") ids.add(p);
        return [...ids];
      },
    };
    const routes = ctx.services.tryGet<RouteRegistry>("routes");
    if (routes) for (const r of authRoutes(credentials, () => deps.providers())) routes.add(r, ctx.id);
    ctx.registerCommand("key", (argv, io) => keyCommand(deps, argv, io));
    ctx.registerCommand("auth", (argv, io) => authCommand(deps, argv, io));
  },
};
