/**
 * Safe streams and log lines for hosts. Extension commands (`inspect`, `skill list`, `hooks list` …) write
 * untrusted text (file names, hook commands, skill descriptions); their output passes through `visible()`
 * here whether it goes to a terminal or a pipe (a piped `skill list` read later with `cat` or `less -R`
 * would still run the escapes). On a pipe the C1/bidi stand-ins are JSON escapes, so `--json` output stays
 * valid JSON with the exact strings. A command whose stdout is a data format (`export`: manifest
 * `"output": "data"`) is exact when redirected and made visible only on a terminal.
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

/**
 * A stream that writes visible() text to `out`: on a terminal with `<U+XXXX>` stand-ins, on a pipe with
 * JSON escapes. `exactWhenRedirected` (data formats): `out` itself when it is not a terminal.
 */
export function terminalSafe(out: NodeJS.WritableStream, opts: { exactWhenRedirected?: boolean } = {}): NodeJS.WritableStream {
  const tty = out as MaybeTty;
  if (!tty.isTTY && opts.exactWhenRedirected) return out;
  const decoder = new StringDecoder("utf8");
  const text = new VisibleStream({ json: !tty.isTTY });
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
  // commands may look at these (a table's width, colour on a terminal only)
  return Object.assign(safe, { isTTY: tty.isTTY === true, columns: tty.columns, rows: tty.rows });
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
