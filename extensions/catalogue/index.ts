/** The catalogue extension: contributes GET /provider and GET /model to a server (see routes.ts). */
import type { ExtensionContext } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, ModelNames, type EngineService, type ModelNameEntry } from "../engine/api.js";
import type { RouteRegistry } from "../serve/api.js";
import { catalogueRoutes } from "./routes.js";

export default {
  activate(ctx: ExtensionContext) {
    const routes = ctx.services.tryGet<RouteRegistry>("routes");
    if (!routes) return;
    const engine = ctx.services.get<EngineService>("engine");
    const providers = ctx.contributions<string[]>("providers");
    const names = ModelNames.fromContributions(providers, ctx.contributions<ModelNameEntry[]>("models"));
    const declared = new Map<string, string>();
    for (const c of providers) for (const p of c.value) if (p !== "*") declared.set(p, c.extension);
    const defaultModel = () => {
      const m = ctx.config.get("model");
      return typeof m === "string" && m ? m : DEFAULT_MODEL_ID;
    };
    for (const r of catalogueRoutes(engine, names, declared, defaultModel)) routes.add(r, ctx.id);
  },
};
