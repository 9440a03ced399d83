/**
 * The resolve hook behind kernel/self-resolve.ts. It runs on Node's loader thread: keep it tiny and
 * free of imports. `oceancode` and `oceancode/<subpath>` are resolved from this package's own
 * package.json, so Node applies the package's "exports" map (unexported subpaths stay refused with
 * ERR_PACKAGE_PATH_NOT_EXPORTED, exactly as for an installed copy).
 */
let parentURL = "";

export function initialize(data: { parentURL: string }): void {
  parentURL = data.parentURL;
}

type Next = (specifier: string, context: Record<string, unknown>) => Promise<unknown>;

export async function resolve(specifier: string, context: Record<string, unknown>, next: Next): Promise<unknown> {
  if (parentURL && (specifier === "oceancode" || specifier.startsWith("oceancode/"))) {
    return next(specifier, { ...context, parentURL });
  }
  return next(specifier, context);
}
