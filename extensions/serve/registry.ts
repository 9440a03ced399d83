/** The route registry (service "routes"): add-only, checked for duplicates; no Fastify here (cheap to activate). */
import type { RegisteredRoute, RouteDefinition, RouteRegistry } from "./api.js";
import { RouteRefused } from "./errors.js";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export class Routes implements RouteRegistry {
  private readonly routes: RegisteredRoute[] = [];
  /** set by a running server: a route added now is kept but not mounted (the router is fixed once listening) */
  late?: (route: RegisteredRoute) => void;

  add(route: RouteDefinition, owner: string): void {
    if (!METHODS.has(route.method)) throw RouteRefused({ method: route.method, url: route.url, owner, problem: ": unknown method" });
    if (!route.url.startsWith("/")) throw RouteRefused({ method: route.method, url: route.url, owner, problem: ": the url must start with /" });
    if (!route.operationId || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(route.operationId)) throw RouteRefused({ method: route.method, url: route.url, owner, problem: ": operationId must be an identifier" });
    if (typeof route.handler !== "function") throw RouteRefused({ method: route.method, url: route.url, owner, problem: ": no handler" });
    // `:id` and `:sessionId` are the same path to the router
    const shape = (u: string) => u.replace(/:[^/]+/g, ":");
    const same = this.routes.find((r) => r.method === route.method && shape(r.url) === shape(route.url));
    if (same) throw RouteRefused({ method: route.method, url: route.url, owner, problem: ` is already added by ${same.owner}` });
    const op = this.routes.find((r) => r.operationId === route.operationId);
    if (op) throw RouteRefused({ method: route.method, url: route.url, owner, problem: `: operationId '${route.operationId}' is already used by ${op.owner} (${op.method} ${op.url})` });
    const added = { ...route, owner };
    this.routes.push(added);
    this.late?.(added);
  }

  list(): readonly RegisteredRoute[] {
    return this.routes;
  }
}
