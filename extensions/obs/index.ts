/**
 * obs: the structured logger every extension logs through. It attaches the kernel's one log sink (so
 * ctx.log lines of every extension reach it with their extension id), serialises with pino, redacts with
 * the shared redactor, keeps the recent-lines ring, feeds subscribers and writes the rotated log file.
 */
import path from "node:path";
import type { ExtensionContext, LogEmit, LogLevelName } from "../../kernel/api.js";
import { OBS_SERVICE, type LogFields, type LogLevel, type ObsService, type StructuredLogger } from "./api.js";
import { LogCore } from "./logger.js";
import { redactorFor } from "./redact.js";
import { RotatingFile } from "./rotate.js";

export const DEFAULT_ROTATE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_KEEP = 5;

interface ObsConfig {
  log_level?: LogLevel;
  log_file?: string;
  log_rotate_bytes?: number;
  log_keep?: number;
}

/** `~/…` is the home's; a relative path is the project's. */
function logPath(raw: string, ctx: ExtensionContext): string {
  if (raw === "~" || raw.startsWith("~/")) return path.join(ctx.paths.home, raw.slice(1));
  return path.resolve(ctx.paths.project, raw);
}

function structured(emit: LogEmit, ext: string, base: LogFields): StructuredLogger {
  const at = (level: LogLevelName) => (msg: string, fields?: LogFields) => emit(level, msg, { ...base, ...fields, ext });
  return { trace: at("trace"), debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), child: (f) => structured(emit, ext, { ...base, ...f }) };
}

export default {
  activate(ctx: ExtensionContext) {
    const cfg = ctx.config.section<ObsConfig>("obs") ?? {};
    const level = cfg.log_level ?? "info";
    const redact = redactorFor(ctx.env);
    const core = new LogCore({ redact, fileLevel: level });
    const emit = ctx.setLogSink((lvl, msg, fields) => core.write(lvl, msg, fields));
    const file = cfg.log_file ? logPath(cfg.log_file, ctx) : undefined;
    if (file) {
      // a file that cannot be opened warns once (through the sink: on stderr, in the ring) and logging goes on
      core.file = new RotatingFile({ file, rotateBytes: cfg.log_rotate_bytes ?? DEFAULT_ROTATE_BYTES, keep: cfg.log_keep ?? DEFAULT_KEEP, onFailure: (m) => emit("warn", m, { ext: ctx.id }) });
    }
    const service: ObsService = {
      logger: (ext, fields = {}) => structured(emit, ext, fields),
      recentLines: (n) => core.ring.last(n),
      redact,
      subscribe: (fn) => core.subscribe(fn),
      withContext: (fields, fn) => core.context.run({ ...core.context.getStore(), ...fields }, fn),
      enterContext: (fields) => core.context.enterWith({ ...core.context.getStore(), ...fields }),
      flush: () => core.flush(),
      level,
      file,
    };
    ctx.kernelHooks.shutdown.tap({ name: ctx.id }, () => core.flush());
    ctx.provide(OBS_SERVICE, service);
  },
};
