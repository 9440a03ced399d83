/** The terminal sanitiser lives in the obs kit's safe-output module (extensions/obs/safe-output.ts, oceancode/kit/obs), shared with extensions. */
export { visible, visibleLine, hasControls, VisibleStream, safeJson, safeOutput, type VisibleOptions } from "../../extensions/obs/kit.js";
