/**
 * bench/pager/pager-input: (1) keystroke-to-echo latency in the composer while an answer streams (text deltas
 * every few ms into the real PagerApp rendering to an in-memory 120x40 terminal); (2) the `@` picker on a
 * 100k-file tree: time to its first result (the index read once: git ls-files, then the .gitignore walk
 * without .git) and the per-keystroke search after that.
 *
 *   node dist/bench/pager/pager-input.js [--keys 200] [--files 100000] [--delta-ms 4]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { PassThrough, Writable } from "node:stream";
import { fakeStdin, stats } from "./tty-fakes.js";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import React from "react";
import { render } from "ink";
import { PagerApp, type PagerActions } from "../../hosts/pager/components/app.js";
import { PagerStore } from "../../hosts/pager/store.js";
import { FileIndex } from "../../hosts/pager/file-index.js";
import { buildMeter } from "../../hosts/pager/meter.js";

class FakeTty extends Writable {
  isTTY = true;
  columns = 120;
  rows = 40;
  onWrite?: (s: string) => void;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.onWrite?.(chunk.toString());
    cb();
  }
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

async function keyToEcho(keys: number, deltaMs: number): Promise<void> {
  const store = new PagerStore();
  store.sessionId = "s1";
  const actions: PagerActions = {
    submit: () => undefined,
    abort: () => undefined,
    exit: () => undefined,
    slashCommands: () => [],
    meter: () => buildMeter({ model: { id: "bench/m", contextWindow: 200_000 } as never, totals: store.totals, gaugeTokens: 0 }),
    applyCapabilities: () => undefined,
  } as unknown as PagerActions;
  const out = new FakeTty();
  const input = fakeStdin();
  const app = render(React.createElement(PagerApp, { store, actions, color: false }), {
    stdout: out as unknown as NodeJS.WriteStream,
    stdin: input,
    stderr: new FakeTty() as unknown as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  store.apply({ type: "turn_start", sessionId: "s1", turn: 1, text: "go" });
  // the answer: markdown prose, lists and a code block every dozen lines, streamed in 16-char deltas
  const para = "Here is some **bold** text and `code` in a line of the answer that keeps going.\n- a list item\n";
  const code = "```ts\nconst x = compute(1, 2);\nfunction f(a: number) { return a * 2; }\n```\n";
  let n = 0;
  const stream = setInterval(() => {
    const src = n % 12 === 11 ? code : para;
    store.apply({ type: "text_delta", sessionId: "s1", text: src.slice((n * 16) % src.length, ((n * 16) % src.length) + 16) || src.slice(0, 16) });
    n++;
  }, deltaMs);
  await new Promise((r) => setTimeout(r, 200));
  const lat: number[] = [];
  let typed = "";
  for (let i = 0; i < keys; i++) {
    const ch = "QXZ"[i % 3]!; // capitals the streamed text never holds
    typed += ch;
    const want = `❯ ${typed}`;
    const seen = new Promise<void>((r) => (out.onWrite = (s) => s.includes(want) && r()));
    const t0 = performance.now();
    (input as unknown as PassThrough).write(ch);
    await seen;
    lat.push(performance.now() - t0);
    if (typed.length >= 60) {
      (input as unknown as PassThrough).write("\x15"); // ctrl+u: keep the composer on one row
      typed = "";
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  clearInterval(stream);
  out.onWrite = undefined;
  app.unmount();
  const k = stats(lat);
  process.stdout.write(`key->echo while streaming (${n} deltas of 16 chars, one per ${deltaMs} ms): mean=${ms(k.mean)} p50=${ms(k.p50)} p95=${ms(k.p95)} max=${ms(k.max)} over ${keys} keys\n`);
}

function makeTree(root: string, files: number): void {
  // 100 top folders x 10 subfolders x files/1000 files, plus an ignored folder git and the walk skip
  const per = Math.max(1, Math.round(files / 1000));
  for (let a = 0; a < 100; a++) {
    for (let b = 0; b < 10; b++) {
      const dir = path.join(root, `pkg${a}`, `mod${b}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let c = 0; c < per; c++) fs.writeFileSync(path.join(dir, `file_${a}_${b}_${c}.ts`), "");
    }
  }
  fs.mkdirSync(path.join(root, "build"), { recursive: true });
  for (let i = 0; i < 1000; i++) fs.writeFileSync(path.join(root, "build", `out${i}.js`), "");
  fs.writeFileSync(path.join(root, ".gitignore"), "build/\n");
}

async function picker(root: string, label: string): Promise<void> {
  const index = new FileIndex(root);
  const t0 = performance.now();
  await index.load();
  const first = index.search("pkg55mod3");
  const t1 = performance.now();
  const queries = ["p", "pk", "pkg", "pkg4", "pkg42", "pkg42/m", "pkg42/mod", "pkg42/mod7", "pkg42/mod7/f", "pkg42/mod7/file_42_7_9", "file_99", "mod1f3"];
  const per: number[] = [];
  for (let r = 0; r < 5; r++) {
    for (const q of queries) {
      const s = performance.now();
      index.search(q);
      per.push(performance.now() - s);
    }
  }
  const k = stats(per);
  process.stdout.write(`@ picker (${label}, ${index.source}): first result ${ms(t1 - t0)} (top: ${first[0]?.path ?? "none"}); per keystroke p50=${ms(k.p50)} p95=${ms(k.p95)} max=${ms(k.max)}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { keys: { type: "string", default: "200" }, files: { type: "string", default: "100000" }, "delta-ms": { type: "string", default: "4" } }, strict: true });
  await keyToEcho(Number(values.keys), Number(values["delta-ms"]));
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-input-"));
  try {
    const t0 = performance.now();
    makeTree(root, Number(values.files));
    process.stdout.write(`tree: ${values.files} files in ${((performance.now() - t0) / 1000).toFixed(1)} s to make\n`);
    execFileSync("git", ["init", "-q"], { cwd: root });
    await picker(root, `${values.files} files, a git checkout`);
    fs.rmSync(path.join(root, ".git"), { recursive: true, force: true });
    await picker(root, `${values.files} files, no .git`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench/pager/pager-input: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
