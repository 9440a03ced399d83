/** obs: skeleton (the structured logger lands with issue 32's logging part). */
import type { ExtensionContext } from "../../kernel/api.js";
import type { LogFields, LogLevel, ObsService, StructuredLogger } from "./api.js";

export default {
  activate(ctx: ExtensionContext) {
    const cfg = ctx.config.section<{ log_level?: LogLevel; log_file?: string }>("obs") ?? {};
    const make = (ext: string, base: LogFields = {}): StructuredLogger => {
      const line = (lvl: "debug" | "info" | "warn" | "error") => (msg: string) => ctx.log[lvl](`[${ext}] ${msg}`);
      return { trace: line("debug"), debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error"), child: (f) => make(ext, { ...base, ...f }) };
    };
    const service: ObsService = { logger: make, recentLines: () => [], subscribe: () => () => {}, redact: (t) => t, flush: () => {}, level: cfg.log_level ?? "info", file: cfg.log_file };
    ctx.provide("obs", service);
  },
};
