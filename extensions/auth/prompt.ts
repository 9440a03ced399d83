/** Terminal prompts for `oceancode auth`: a plain question and a hidden one (the key is never echoed). */
import readline from "node:readline";
import { Writable } from "node:stream";

export async function ask(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, question: string, hidden = false): Promise<string> {
  let muted = false;
  // readline echoes what is typed through `output`; a muted pass-through hides the key
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      if (!muted) output.write(chunk);
      cb();
    },
  });
  const rl = readline.createInterface({ input, output: sink, terminal: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.question(question, (answer) => resolve(answer));
      muted = hidden;
      rl.once("close", () => reject(new Error("input closed")));
      rl.once("SIGINT", () => reject(new Error("cancelled")));
    });
  } finally {
    muted = false;
    if (hidden) output.write("\n");
    rl.close();
  }
}

/** Read stdin to EOF (non-TTY input such as a pipe). */
export async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of input) text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
  return text;
}
