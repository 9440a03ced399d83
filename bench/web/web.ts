/**
 * bench/web/web: the browser client against the pager, on the same prompt and the same fake Anthropic server
 * (the real SDK both ways): time to first streamed token (send to the first token on screen: in the page,
 * a click to the DOM node; in the pager, the prompt to the ink frame that shows it), median and p95;
 * the page's weight (each file gzipped, as a proxy would send it); the page's JS heap (after a forced GC)
 * and the time to show a session of 1,000 messages.
 *
 *   node dist/bench/web/web.js [--runs 15] [--messages 1000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import React from "react";
import { render } from "ink";
import { chromium, type Page } from "playwright-core";
import { bootKernel } from "../../hosts/boot.js";
import { PagerApp } from "../../hosts/pager/components/app.js";
import { PagerController } from "../../hosts/pager/controller.js";
import { startFakeAnthropic } from "../../test/kit/fakes/anthropic-server.js";
import { startServe } from "../../extensions/serve/test/serve-helpers.js";
import { fakeStdin, stats } from "../pager/tty-fakes.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const MODEL = "anthropic/claude-sonnet-4-5";
const MARK = "FIRSTTOKEN";
const ANSWER = `${MARK} and then the rest of the answer, with \`code\` and **bold**, streamed in small chunks.`;

class FakeTty extends Writable {
  isTTY = true;
  columns = 100;
  rows = 30;
  onWrite?: (s: string) => void;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.onWrite?.(chunk.toString());
    cb();
  }
}

function envFor(root: string, fakeUrl: string): NodeJS.ProcessEnv {
  const home = path.join(root, "home");
  fs.mkdirSync(home, { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local/share"),
    XDG_STATE_HOME: path.join(home, ".local/state"),
    OC_MANAGED_CONFIG: path.join(root, "managed.json"),
    NO_COLOR: "1",
    ANTHROPIC_API_KEY: "sk-bench",
    ANTHROPIC_BASE_URL: fakeUrl,
    OC_MAX_STEPS: "5000",
  };
}


/** In the page: click Send, and time until the first token is in the DOM (measured inside the page). */
async function pageFirstToken(page: Page, prompt: string): Promise<number> {
  await page.fill("#prompt", prompt);
  return page.evaluate(
    (mark) =>
      new Promise<number>((resolve, reject) => {
        const chat = document.querySelector(".chat")!;
        const t = setTimeout(() => reject(new Error("no token in 20 s")), 20_000);
        const obs = new MutationObserver(() => {
          const live = chat.querySelector(".streaming");
          if (live?.textContent?.includes(mark)) {
            obs.disconnect();
            clearTimeout(t);
            resolve(performance.now() - t0);
          }
        });
        obs.observe(chat, { childList: true, subtree: true, characterData: true });
        const t0 = performance.now();
        (document.querySelector("button[type=submit]") as HTMLButtonElement).click();
      }),
    MARK,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "15" }, messages: { type: "string", default: "1000" } }, strict: true });
  const runs = Number(values.runs);
  const messages = Number(values.messages);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-web-"));
  const project = path.join(root, "project");
  fs.mkdirSync(project, { recursive: true });
  const fake = await startFakeAnthropic();
  const env = envFor(root, fake.url);
  fake.respond(() => ({ text: ANSWER }));

  // ---- the page
  const web = await startServe(["--directory", project], { env, command: "web" });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${web.url}/`);
  await page.fill("#model", MODEL);
  await page.click("button:has-text('New session')");
  await page.waitForSelector(".chat[data-connected=yes]", { timeout: 20_000 });
  const inPage: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const ms = await pageFirstToken(page, `say hi ${i}`);
    if (i > 0) inPage.push(ms); // the first one warms the server's session up
    await page.waitForSelector(".chat:not(:has(.streaming))", { timeout: 20_000 });
  }

  // ---- the pager (in process, as bench/pager/pager does), the same prompts
  const kernel = await bootKernel({ project, home: env.HOME!, verbose: false }, env);
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const ctl = new PagerController(kernel, engine, { cwd: project, model: MODEL });
  await ctl.start();
  const out = new FakeTty();
  const app = render(React.createElement(PagerApp, { store: ctl.store, actions: ctl, color: false }), {
    stdout: out as unknown as NodeJS.WriteStream,
    stdin: fakeStdin(),
    stderr: new FakeTty() as unknown as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const inPager: number[] = [];
  for (let i = 0; i <= runs; i++) {
    let seen: () => void = () => undefined;
    const first = new Promise<void>((r) => (seen = r));
    out.onWrite = (s) => s.includes(MARK) && seen();
    const t0 = performance.now();
    const done = ctl.prompt(`say hi ${i}`);
    await first;
    if (i > 0) inPager.push(performance.now() - t0);
    out.onWrite = undefined;
    await done;
  }
  app.unmount();
  await ctl.close();
  await kernel.shutdown();

  const p = stats(inPage);
  const q = stats(inPager);
  const f = (n: number) => `${n.toFixed(1)} ms`;
  process.stdout.write(`first streamed token  page  median=${f(p.p50)} p95=${f(p.p95)}   pager median=${f(q.p50)} p95=${f(q.p95)}   (${runs} prompts each)\n`);

  // ---- page weight
  const assets = path.join(ROOT, "dist", "extensions", "web", "assets");
  let raw = 0;
  let gz = 0;
  const per: string[] = [];
  for (const name of fs.readdirSync(assets).sort()) {
    const b = fs.readFileSync(path.join(assets, name));
    const z = gzipSync(b, { level: 9 }).length;
    raw += b.length;
    gz += z;
    per.push(`${name} ${(z / 1024).toFixed(1)}`);
  }
  process.stdout.write(`page weight  ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip (${per.join(", ")} KB)\n`);

  // ---- a session of `messages` rows: one turn of tool steps (an assistant row and a tool row each)
  const steps = Math.ceil(messages / 2);
  let n = 0;
  fake.respond(() => (++n < steps ? { text: `step ${n}: looking at **file ${n}**\n\n\`\`\`ts\nconst n = ${n};\n\`\`\``, toolCalls: [{ name: "nosuchtool", input: { n } }] } : { text: "all done" }));
  const created = await (await fetch(`${web.url}/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: MODEL }) })).json() as { id: string };
  const t1 = performance.now();
  await fetch(`${web.url}/session/${created.id}/prompt`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "a long one" }) });
  for (let i = 0; i < 6000; i++) {
    const s = (await (await fetch(`${web.url}/session/${created.id}`)).json()) as { running?: string; queued?: number };
    if (!s.running && !s.queued && n >= steps) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const rowsNow = ((await (await fetch(`${web.url}/session/${created.id}/message?limit=1000`)).json()) as { messages: unknown[]; nextCursor?: number });
  process.stdout.write(`long session  ${steps} steps in ${((performance.now() - t1) / 1000).toFixed(1)} s (${rowsNow.messages.length}${rowsNow.nextCursor ? "+" : ""} rows)\n`);
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    return (await cdp.send("Runtime.getHeapUsage")).usedSize;
  };
  await page.goto(`${web.url}/`);
  await page.waitForSelector("button:has-text('New session')");
  const empty = await heap();
  const t2 = performance.now();
  await page.goto(`${web.url}/#/s/${created.id}`);
  await page.waitForSelector(".msg.assistant:has-text('all done')", { timeout: 60_000 });
  const shown = performance.now() - t2;
  const full = await heap();
  const domNodes = await page.evaluate(() => document.getElementsByTagName("*").length);
  process.stdout.write(`1,000-message page  shown in ${f(shown)}; JS heap ${(empty / 1048576).toFixed(1)} MB empty -> ${(full / 1048576).toFixed(1)} MB with the session; ${domNodes} DOM elements\n`);

  await browser.close();
  await web.stop("SIGKILL");
  await fake.close();
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`bench/web/web: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
