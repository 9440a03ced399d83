/**
 * compat: all it contributes is data in its manifest (walk roots) plus plugin-roots.js, which the kernel
 * loads at discovery. There is nothing to activate; the module exists because every extension has one.
 */
import type { ExtensionContext } from "../../kernel/api.js";

export default {
  activate(_ctx: ExtensionContext): void {
    // no run-time part
  },
};
