/** The terminal sanitiser lives in the kernel's safe-output kit (kernel/safe-output.ts), shared with extensions. */
export { visible, visibleLine, hasControls, VisibleStream, safeJson, safeOutput, type VisibleOptions } from "../../kernel/api.js";
