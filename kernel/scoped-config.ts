/**
 * An extension's view of the config: only the sections it owns (contributes.config) and those it
 * declares in `reads`. Reading another section throws OC_ERR_SERVICE_NOT_DECLARED, so a cross-extension
 * read is always visible in the manifest. Hosts and introspection keep the whole config.
 */
import { ResolvedConfig } from "./config.js";
import { OcError, ErrorCodes } from "./errors.js";

export class ScopedConfig extends ResolvedConfig {
  constructor(
    full: ResolvedConfig,
    private readonly allowed: ReadonlySet<string>,
    private readonly owner: string,
  ) {
    const keep = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([k]) => allowed.has(k)));
    super(
      keep(full.value),
      new Map([...full.provenance].filter(([k]) => allowed.has(k.split(".")[0]!))),
      full.layers.map((l) => ({ ...l, value: keep(l.value) })),
      full.warnings,
    );
  }

  private check(section: string): void {
    if (!this.allowed.has(section)) {
      throw new OcError(ErrorCodes.SERVICE_NOT_DECLARED, `extension '${this.owner}' read config section '${section}' without declaring it`, {
        hint: `add "reads": ["${section}"] to its manifest`,
      });
    }
  }
  override section<T = Record<string, unknown>>(name: string): T {
    this.check(name);
    return super.section<T>(name);
  }
  override get(dotted: string): unknown {
    this.check(dotted.split(".")[0]!);
    return super.get(dotted);
  }
  override sourceOf(dotted: string): ReturnType<ResolvedConfig["sourceOf"]> {
    this.check(dotted.split(".")[0]!);
    return super.sourceOf(dotted);
  }
}
