/**
 * Add-only registries for tools and providers: a duplicate is an error, never a silent override.
 * Both are contribution points the engine owns (manifest `contributes.tools` / `contributes.providers`,
 * validated by the kernel against tools.point.schema.json / providers.point.schema.json); what registers
 * at run time is checked against what manifests declared, one warning line per mismatch naming the extension.
 */
import type { Provider, ProviderRegistry, ToolDefinition, ToolRegistry } from "./api.js";
import { DuplicateProvider, DuplicateTool } from "./errors.js";

/** name -> the extension whose manifest declares it */
export type Declared = ReadonlyMap<string, string>;
type Warn = (msg: string) => void;

/** A declared name ending in `__*` is a family: every name with that prefix (e.g. `mcp__*` for MCP servers' tools). */
function isFamily(name: string): boolean {
  return name.endsWith("__*");
}
function declares(declared: Declared, name: string, by: string | undefined): boolean {
  if (declared.has(name)) return true;
  // "*": that extension registers providers the user declares (provider.<name> in config)
  if (by !== undefined && declared.get("*") === by) return true;
  for (const d of declared.keys()) if (isFamily(d) && name.startsWith(d.slice(0, -1))) return true;
  return false;
}

function undeclared(warn: Warn | undefined, declared: Declared | undefined, kind: "tool" | "provider", name: string, by: string | undefined): void {
  if (!warn || !declared || declares(declared, name, by)) return;
  warn(`extension '${by ?? "(unnamed)"}' registered ${kind} '${name}', which no manifest declares in contributes.${kind}s`);
}

export class Tools implements ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  private checked = false;
  constructor(
    private readonly declared?: Declared,
    private readonly warn?: Warn,
    /** declared with `optional: true`: registered only when its extension's feature is on, so never missed */
    private readonly optional: ReadonlySet<string> = new Set(),
  ) {}
  register(tool: ToolDefinition, by?: string): void {
    if (this.byName.has(tool.name)) throw DuplicateTool({ name: tool.name });
    undeclared(this.warn, this.declared, "tool", tool.name, by);
    this.byName.set(tool.name, tool);
  }
  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }
  list(): ToolDefinition[] {
    return [...this.byName.values()];
  }
  /** Once, when tools are first offered to a model (session extensions are active): declared tools that never registered. */
  checkDeclared(): void {
    if (this.checked || !this.declared || !this.warn) return;
    this.checked = true;
    for (const [name, ext] of this.declared) if (!isFamily(name) && !this.optional.has(name) && !this.byName.has(name)) this.warn(`extension '${ext}' declares tool '${name}' in contributes.tools but never registered it`);
  }
}

export class Providers implements ProviderRegistry {
  private readonly byId = new Map<string, Provider>();
  constructor(
    private readonly declared?: Declared,
    private readonly warn?: Warn,
  ) {}
  register(provider: Provider, by?: string): void {
    if (this.byId.has(provider.id)) throw DuplicateProvider({ id: provider.id });
    undeclared(this.warn, this.declared, "provider", provider.id, by);
    this.byId.set(provider.id, provider);
  }
  get(id: string): Provider | undefined {
    return this.byId.get(id);
  }
  /** The registered provider ids. */
  ids(): string[] {
    return [...this.byId.keys()];
  }
  /** After its activation event fired: a declared provider that did not register is named. */
  checkLoaded(id: string): void {
    // "*" stands for the providers users declare, never one provider that should have registered
    const ext = id === "*" ? undefined : this.declared?.get(id);
    if (ext && !this.byId.has(id)) this.warn?.(`extension '${ext}' declares provider '${id}' in contributes.providers but did not register it`);
  }
}
