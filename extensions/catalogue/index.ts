/**
 * The catalogue extension: `oceancode models` (listing.ts) and, on a server, GET /provider and GET /model
 * (routes.ts). Both read the catalogue from the provider manifests' contributes.models, never loading a provider.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type EngineService, type ModelNameEntry } from "../engine/api.js";
import { ModelNames } from "../engine/kit.js";
import type { RouteRegistry } from "../serve/api.js";
import { modelsCommand } from "./listing.js";
import { catalogueRoutes } from "./routes.js";

export default {
  activate(ctx: ExtensionContext) {
    const providers = ctx.contributions<string[]>("providers");
    const names = ModelNames.fromContributions(providers, ctx.contributions<ModelNameEntry[]>("models"));
    ctx.registerCommand("models", (argv, io) => Promise.resolve(modelsCommand(names, argv, io)));
    const routes = ctx.services.tryGet("routes");
    if (!routes) return;
    const engine = ctx.services.get("engine");
    const declared = new Map<string, string>();
    for (const c of providers) for (const p of c.value) if (p !== "*") declared.set(p, c.extension);
    const defaultModel = () => {
      const m = ctx.config.get("model");
      return typeof m === "string" && m ? m : DEFAULT_MODEL_ID;
    };
    for (const r of catalogueRoutes(engine, names, declared, defaultModel)) routes.add(r, ctx.id);
  },
};
