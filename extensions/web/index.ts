/**
 * The web extension: the browser client's routes (added to serve's registry when it activates: on
 * `oceancode web`, or on `serve --web`'s activation event) and the `oceancode web` command, which is serve's
 * own run with those routes.
 */
import { fileURLToPath } from "node:url";
import type { ExtensionContext } from "../../kernel/api.js";
import { assetsIn, webRoutes } from "./static.js";

export default {
  activate(ctx: ExtensionContext) {
    const routes = ctx.services.get("routes");
    const assets = assetsIn(fileURLToPath(new URL("./assets/", import.meta.url)));
    for (const r of webRoutes(assets)) routes.add(r, ctx.id);
    ctx.registerCommand("web", (argv, io) => ctx.services.get("serve").command(argv, io, { name: "web", web: true }));
  },
};
