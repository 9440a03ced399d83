/**
 * The client's requests that arrive while its `initialize` is still unanswered wait for that answer
 * (smaller finding 48). The SDK refuses any request but initialize until the initialize reply went out
 * (`ACP connection must be initialized before 'session/new'`), and it handles messages concurrently, so a
 * client that writes initialize and session/new back to back (the guide's own probe) lost the second.
 *
 * The queue sits between stdin and the SDK, on newline-delimited JSON lines: after an `initialize`
 * request, every later line is held until the reply with that request's id has been written to stdout,
 * then they go on in order. A request with no initialize before it passes at once (the SDK refuses it,
 * as it should). Once the first initialize is answered the queue steps aside: bytes pass through as read
 * (the SDK takes a later initialize at any time).
 */

/** The longest unterminated line held while scanning; past it the bytes go through and the queue steps aside. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

type Id = string | number;

function parse(line: string): { method?: unknown; id?: unknown; result?: unknown; error?: unknown } | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class InitQueue {
  /** the id of the initialize request not yet answered */
  private waiting: Id | undefined;
  private held: Uint8Array[] = [];
  private partial = "";
  /** the first initialize was answered (or scanning gave up): pass everything through */
  private done = false;
  private readonly decoder = new TextDecoder();
  private readonly outDecoder = new TextDecoder();

  constructor(
    private readonly forward: (chunk: Uint8Array) => void,
    private readonly close: () => void,
  ) {}

  /** Bytes read from stdin. */
  input(chunk: Uint8Array): void {
    if (this.done && this.waiting === undefined) return this.forward(chunk);
    this.partial += this.decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.partial.indexOf("\n")) >= 0) {
      const line = this.partial.slice(0, nl + 1);
      this.partial = this.partial.slice(nl + 1);
      this.line(line);
    }
    if (this.partial.length > MAX_LINE_BYTES && this.waiting === undefined) {
      this.done = true;
      const rest = this.partial;
      this.partial = "";
      this.forward(Buffer.from(rest));
    }
  }

  private ended = false;
  private closed = false;

  /** stdin ended: what is left goes on (an unterminated last line included), then the input closes. */
  end(): void {
    this.ended = true;
    if (this.waiting === undefined) this.release();
  }

  private line(line: string): void {
    const bytes = Buffer.from(line);
    if (this.waiting !== undefined) {
      this.held.push(bytes);
      return;
    }
    const msg = this.done ? undefined : parse(line);
    if (msg && msg.method === "initialize" && (typeof msg.id === "string" || typeof msg.id === "number")) this.waiting = msg.id;
    this.forward(bytes);
  }

  /** Bytes about to be written to stdout: the initialize reply releases what was held (after it is written). */
  output(chunk: Uint8Array): boolean {
    if (this.waiting === undefined) return false;
    for (const line of this.outDecoder.decode(chunk).split("\n")) {
      const msg = line.trim() ? parse(line) : undefined;
      if (msg && msg.id === this.waiting && ("result" in msg || "error" in msg) && msg.method === undefined) return true;
    }
    return false;
  }

  /** The initialize reply is out: the held lines go on, in order; from now on bytes pass through as read. */
  release(): void {
    this.waiting = undefined;
    this.done = true;
    const held = this.held;
    this.held = [];
    for (const bytes of held) this.forward(bytes);
    // the start of a line not yet ended goes before the bytes that end it
    if (this.partial) this.forward(Buffer.from(this.partial));
    this.partial = "";
    if (this.ended && !this.closed) {
      this.closed = true;
      this.close();
    }
  }
}
