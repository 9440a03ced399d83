/** The auth extension: the credentials service and the `key` / `auth` commands. */
import type { ExtensionContext } from "../../kernel/api.js";
import type { CredentialsService } from "./api.js";
import { createCredentials } from "./credentials.js";
import { authCommand, keyCommand, type CommandDeps } from "./commands.js";
import { authRoutes } from "./routes.js";
import { authOf, keyProviders, PROVIDER_AUTH } from "./providers.js";

export default {
  activate(ctx: ExtensionContext) {
    const credentials: CredentialsService = createCredentials({ dataDir: ctx.paths.dataDir, env: ctx.env, warn: (m) => ctx.log.warn(m) });
    ctx.provide<CredentialsService>("credentials", credentials);
    // "*" (the extension registering the providers users declare) names no provider
    const installed = () => new Set(ctx.contributions<string[]>("providers").flatMap((c) => c.value).filter((p) => p !== "*"));
    const deps: CommandDeps = {
      credentials,
      installed,
      // the table's keyed providers (known even when their manifest is not installed), then any other
      // contributed provider that takes a key
      providers: () => [...new Set([...keyProviders(), ...[...installed()].filter((p) => authOf(p).kind === "key")])],
      allProviders: () => [...new Set([...Object.keys(PROVIDER_AUTH), ...installed()])].filter((p) => p !== "scripted"),
    };
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of authRoutes(credentials, () => deps.providers())) routes.add(r, ctx.id);
    ctx.registerCommand("key", (argv, io) => keyCommand(deps, argv, io));
    ctx.registerCommand("auth", (argv, io) => authCommand(deps, argv, io));
  },
};
