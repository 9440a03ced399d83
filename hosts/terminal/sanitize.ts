/** The terminal sanitiser is the kernel API's (oceancode/kernel), taken from its module so a start evaluates no more (test/lint/reach.ts). */
export { visible, visibleLine, hasControls, VisibleStream, safeJson, safeOutput, type VisibleOptions } from "../../kernel/safe-output.js";
