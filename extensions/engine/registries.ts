/** Add-only registries for tools and providers: a duplicate is an error, never a silent override. */
import type { Provider, ProviderRegistry, ToolDefinition, ToolRegistry } from "./api.js";

export class DuplicateError extends Error {
  readonly code = "OC_ERR_DUPLICATE_SERVICE";
}

export class Tools implements ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  register(tool: ToolDefinition): void {
    if (this.byName.has(tool.name)) throw new DuplicateError(`OC_ERR_DUPLICATE_SERVICE: tool '${tool.name}' is already registered`);
    this.byName.set(tool.name, tool);
  }
  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }
  list(): ToolDefinition[] {
    return [...this.byName.values()];
  }
}

export class Providers implements ProviderRegistry {
  private readonly byId = new Map<string, Provider>();
  register(provider: Provider): void {
    if (this.byId.has(provider.id)) throw new DuplicateError(`OC_ERR_DUPLICATE_SERVICE: provider '${provider.id}' is already registered`);
    this.byId.set(provider.id, provider);
  }
  get(id: string): Provider | undefined {
    return this.byId.get(id);
  }
}
