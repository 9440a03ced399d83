/**
 * bench/pager/pager: keystroke-to-echo latency and render time per streamed token, at step 10 and at step
 * 1,000 of a scripted session. The pager runs on the real kernel, engine and scripted model; ink renders
 * into an in-memory 80x24 "terminal". Per-token work must not grow with the history.
 *
 *   node dist/bench/pager/pager.js [--steps 1000] [--tokens 200] [--keys 100]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { fakeStdin, stats } from "./tty-fakes.js";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import React from "react";
import { render } from "ink";
import { bootKernel } from "../../hosts/boot.js";
import { PagerApp } from "../../hosts/pager/components/app.js";
import { PagerController } from "../../hosts/pager/controller.js";

class FakeTty extends Writable {
  isTTY = true;
  columns = 80;
  rows = 24;
  bytes = 0;
  lastChunk = "";
  onWrite?: (s: string) => void;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    const s = chunk.toString();
    this.bytes += s.length;
    this.lastChunk = s;
    this.onWrite?.(s);
    cb();
  }
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { steps: { type: "string", default: "1000" }, tokens: { type: "string", default: "200" }, keys: { type: "string", default: "100" } }, strict: true });
  const steps = Number(values.steps);
  const tokens = Number(values.tokens);
  const keys = Number(values.keys);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-pager-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  // turn 1 ends at step 10, turn 2 at step `steps`; each step streams text and calls a tool
  const work = (n: number) => ({ text: "working on it, step {{n}}", chunks: 6, tool_calls: [{ name: "nosuchtool", input: { n } }], repeat: n });
  fs.writeFileSync(path.join(project, "bench.json"), JSON.stringify({ steps: [work(9), { text: "ten done" }, work(steps - 11), { text: "all done" }] }));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_DATA_HOME: path.join(home, ".local/share"), XDG_STATE_HOME: path.join(home, ".local/state"), OC_MANAGED_CONFIG: path.join(root, "managed.json"), NO_COLOR: "1" };
  const kernel = await bootKernel({ project, home, verbose: false }, env);
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const ctl = new PagerController(kernel, engine, { cwd: project, model: "scripted/bench.json" });
  await ctl.start();

  const out = new FakeTty();
  const input = fakeStdin();
  let rendered: (() => void) | undefined;
  const app = render(React.createElement(PagerApp, { store: ctl.store, actions: ctl, color: false }), {
    stdout: out as unknown as NodeJS.WriteStream,
    stdin: input,
    stderr: new FakeTty() as unknown as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 100_000,
    onRender: () => rendered?.(),
  });

  const measure = async (label: string) => {
    await new Promise((r) => setTimeout(r, 50));
    // render time per streamed token: event in, frame written
    const per: number[] = [];
    const bytes: number[] = [];
    for (let i = 0; i < tokens; i++) {
      const before = out.bytes;
      const done = new Promise<void>((r) => (rendered = r));
      const t0 = performance.now();
      ctl.store.apply({ type: "text_delta", sessionId: ctl.session.info.id, text: `tok${i} ` });
      await done;
      per.push(performance.now() - t0);
      bytes.push(out.bytes - before);
    }
    ctl.store.apply({ type: "turn_end", sessionId: ctl.session.info.id, turn: 0, reason: "end_turn", text: "" });
    await new Promise((r) => setTimeout(r, 20));
    // keystroke to echo: a key into stdin until the frame that shows it is written
    const lat: number[] = [];
    for (let i = 0; i < keys; i++) {
      const ch = String.fromCharCode(97 + (i % 26));
      const seen = new Promise<void>((r) => (out.onWrite = (s) => s.includes(ch) && r()));
      const t0 = performance.now();
      (input as unknown as PassThrough).write(ch);
      await seen;
      lat.push(performance.now() - t0);
    }
    out.onWrite = undefined;
    (input as unknown as PassThrough).write("\x15"); // ctrl+u clears the composer
    await new Promise((r) => setTimeout(r, 20));
    const r = stats(per);
    const k = stats(lat);
    const items = ctl.store.done.length;
    process.stdout.write(
      `${label.padEnd(9)} transcript items=${String(items).padStart(5)}  render/token mean=${ms(r.mean)} p50=${ms(r.p50)} p95=${ms(r.p95)}  bytes/token=${Math.round(stats(bytes).mean)}  key->echo mean=${ms(k.mean)} p95=${ms(k.p95)}\n`,
    );
    return { render: r.mean, key: k.mean };
  };

  const t1 = performance.now();
  await ctl.prompt("first ten steps");
  const a = await measure(`step ${ctl.session.totals.steps}`);
  await ctl.prompt("the rest");
  const t2 = performance.now();
  const b = await measure(`step ${ctl.session.totals.steps}`);
  process.stdout.write(`session: ${ctl.session.totals.steps} steps in ${((t2 - t1) / 1000).toFixed(1)} s with the pager rendering\n`);
  process.stdout.write(`growth step 10 -> ${ctl.session.totals.steps}: render/token x${(b.render / a.render).toFixed(2)}, key->echo x${(b.key / a.key).toFixed(2)}\n`);
  app.unmount();
  await ctl.close();
  await kernel.shutdown();
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`bench/pager/pager: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
