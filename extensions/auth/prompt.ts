/** Terminal prompts for `oceancode auth`: plain and hidden questions (the key is never echoed). */
import readline from "node:readline";
import { Writable } from "node:stream";

export interface Prompter {
  ask(question: string, hidden?: boolean): Promise<string>;
  close(): void;
}

/** One readline over the terminal for the whole dialogue, so typed-ahead lines are queued, not lost. */
export function createPrompter(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Prompter {
  let muted = false;
  // readline echoes keystrokes through its output; a muted pass-through hides the key
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (!muted) output.write(chunk);
      cb();
    },
  });
  const rl = readline.createInterface({ input, output: sink, terminal: true });
  const lines: string[] = [];
  const waiting: Array<{ resolve(s: string): void; reject(e: Error): void }> = [];
  let closed: Error | undefined;
  rl.on("line", (l) => {
    const w = waiting.shift();
    if (w) w.resolve(l);
    else lines.push(l);
  });
  const fail = (e: Error) => {
    closed ??= e;
    for (const w of waiting.splice(0)) w.reject(closed);
  };
  rl.on("close", () => fail(new Error("input closed")));
  rl.on("SIGINT", () => {
    fail(new Error("cancelled"));
    rl.close();
  });
  return {
    async ask(question, hidden = false) {
      output.write(question);
      muted = hidden;
      try {
        const queued = lines.shift();
        if (queued !== undefined) return queued;
        if (closed) throw closed;
        return await new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
      } finally {
        muted = false;
        if (hidden) output.write("\n");
      }
    },
    close: () => rl.close(),
  };
}

/** Read stdin to EOF (non-TTY input such as a pipe). */
export async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of input) text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
  return text;
}
