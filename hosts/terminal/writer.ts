/**
 * Terminal-safe streams and log lines for hosts. Extension commands (`inspect`, `export`, `hooks list` …)
 * write untrusted text (file names, hook commands, transcripts); when their output goes to a terminal it
 * passes through `visible()` here, and when it is redirected it stays exact.
 */
import { Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type { Logger } from "../../kernel/api.js";
import { visible, VisibleStream } from "./sanitize.js";

interface MaybeTty extends NodeJS.WritableStream {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** `out` itself when it is not a terminal; else a stream that writes visible() text to it. */
export function terminalSafe(out: NodeJS.WritableStream): NodeJS.WritableStream {
  const tty = out as MaybeTty;
  if (!tty.isTTY) return out;
  const decoder = new StringDecoder("utf8");
  const text = new VisibleStream();
  const safe = new Writable({
    decodeStrings: false,
    write(chunk: unknown, _enc, cb) {
      const s = typeof chunk === "string" ? chunk : decoder.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      const shown = text.push(s);
      if (shown) out.write(shown);
      cb();
    },
    final(cb) {
      const rest = text.push(decoder.end()) + text.end();
      if (rest) out.write(rest);
      cb();
    },
  });
  // commands may look at these (a table's width)
  return Object.assign(safe, { isTTY: true, columns: tty.columns, rows: tty.rows });
}

/** The kernel's stderr log format, with each message made visible first. */
export function sanitizingLogger(verbose: boolean, stderr: NodeJS.WritableStream): Logger {
  const w = (lvl: string, m: string) => stderr.write(`oceancode: ${lvl}${visible(m)}\n`);
  return {
    debug: (m) => void (verbose && w("", m)),
    info: (m) => void (verbose && w("", m)),
    warn: (m) => w("warning: ", m),
    error: (m) => w("error: ", m),
  };
}
