/**
 * The web client end to end: a real serve child with --web (and `oceancode web` with a password), the fake
 * Anthropic server playing the model through the real SDK, and one Debian Chromium driven by playwright-core
 * for every page. The tests share the browser and the server and run in order (one session's life).
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { OceancodeClient } from "../../serve/client/index.js";
import { SseReader, startServe, type Served } from "../../serve/test/serve-helpers.js";
import { axeSerious, consoleErrors, launch } from "./web-helpers.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const WAIT = { timeout: 20_000 };

let fake: FakeAnthropicServer;
let sb: Sandbox;
let srv: Served;
let browser: Browser;
let page: Page;
let errors: string[];
let sessionId = "";

beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-web-");
  sb.write("README.md", "# demo\n");
  // file edits ask (the base rule allows them), so a write makes a permission question
  sb.write(".config/oceancode/oceancode.json", JSON.stringify({ permission: ["edit * ask"] }), "home");
  [srv, browser] = await Promise.all([startServe(["--directory", sb.project, "--web"], { env: anthropicEnv(sb, fake.url) }), launch()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  errors = consoleErrors(page);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop("SIGKILL");
  await fake?.close();
  sb?.cleanup();
});

const sessionPath = () => `/session/${sessionId}`;

async function send(text: string): Promise<void> {
  await page.fill("#prompt", text);
  await page.click("button[type=submit]");
}

describe("the web client (oceancode serve --web) in Chromium", () => {
  it("serves the page and its files with a strict CSP, out of /doc, refusing unknown names", async () => {
    const res = await fetch(`${srv.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    for (const d of ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "object-src 'none'"]) expect(csp).toContain(d);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    // no inline script: the one script is a file of the server's
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/web/app.js">']);
    expect(html).not.toMatch(/https?:\/\//);
    const js = await fetch(`${srv.url}/web/app.js`);
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    const code = await js.text();
    expect(code.length).toBeGreaterThan(10_000);
    // nothing the CSP would have to allow: no eval, no Function constructor, no address elsewhere to load
    expect(code).not.toMatch(/\beval\(|new Function\(|importScripts\(/);
    expect((await fetch(`${srv.url}/web/nope.js`)).status).toBe(404);
    expect((await fetch(`${srv.url}/web/..%2Fpackage.json`)).status).toBe(404);
    const doc = (await (await fetch(`${srv.url}/doc`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p === "/" || p.startsWith("/web"))).toEqual([]);
  });

  it("opens, starts a session, and streams a markdown answer with highlighted code; model HTML stays text", async () => {
    await page.goto(`${srv.url}/`, { waitUntil: "load" });
    await page.waitForSelector("button:has-text('New session')", WAIT);
    await page.fill("#model", MODEL);
    await page.click("button:has-text('New session')");
    await page.waitForFunction(() => /^#\/s\/.+/.test(location.hash), undefined, WAIT);
    sessionId = decodeURIComponent((await page.evaluate(() => location.hash)).slice(4));
    await page.waitForSelector(".chat[data-connected=yes]", WAIT);
    fake.enqueue({
      text: "Here is **bold** text and code:\n\n```ts\nconst answer: number = 42;\n```\n\n<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>",
      streamMs: 1500,
    });
    await send("show me code");
    // seen while it streams, then as the stored row
    await page.waitForSelector(".msg.assistant.streaming", WAIT);
    await page.waitForSelector(".msg.assistant:not(.streaming) .md strong", WAIT);
    expect(await page.textContent(".msg.assistant .md strong")).toBe("bold");
    expect(await page.textContent(".msg.assistant pre.code .hljs-keyword")).toBe("const");
    expect(await page.textContent(".msg.assistant pre.code .hljs-number")).toBe("42");
    expect(await page.locator(".chat img, .chat script").count()).toBe(0);
    expect(await page.textContent(".msg.assistant")).toContain("<img src=x");
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await page.waitForSelector(".status:has-text('Answer complete')", WAIT);
    expect(await page.textContent(".meter")).toMatch(/tokens/);
  });

  it("asks for an edit's permission with its diff; approved, the file is written and the diff shown; undo takes it back", async () => {
    const file = path.join(sb.project, "notes.txt");
    fake.enqueue({ text: "writing", toolCalls: [{ id: "toolu_web1", name: "write", input: { file_path: file, content: "hello from the web\n" } }] }, { text: "wrote **notes.txt**" });
    await send("write the notes");
    await page.waitForSelector(".question", WAIT);
    expect(await page.textContent(".question h3")).toContain("write");
    expect(await page.textContent(".question .diff")).toContain("+hello from the web");
    expect(fs.existsSync(file)).toBe(false);
    // the first answer button has the focus (keyboard: Enter approves)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Allow once");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".msg.assistant:not(.streaming) strong:has-text('notes.txt')", WAIT);
    await page.waitForSelector(".tool-result .diff .line.add", WAIT);
    expect(await page.textContent(".tool-result .diff")).toContain("hello from the web");
    expect(fs.readFileSync(file, "utf8")).toBe("hello from the web\n");
    expect(await page.locator(".question").count()).toBe(0);

    const client = new OceancodeClient({ baseUrl: srv.url });
    expect((await client.sessionCheckpoints({ id: sessionId })).hidden).toEqual([]);
    await page.click("button:has-text('Undo')");
    await page.waitForSelector(".status:has-text('Undone')", WAIT);
    expect(fs.existsSync(file)).toBe(false);
    // the undone turn's rows are still stored (nothing is deleted); the checkpoints route names its turn, the page hides it
    const cp = await client.sessionCheckpoints({ id: sessionId });
    expect(cp.hidden.length).toBeGreaterThan(0);
    expect(cp.active).toBe(1);
    const rows = (await client.sessionMessages({ id: sessionId })).messages as Array<{ turn?: number; role: string; text?: string }>;
    expect(rows.filter((r) => cp.hidden.includes(r.turn ?? -1)).some((r) => r.text === "write the notes")).toBe(true);
    expect(await page.textContent(".chat")).not.toContain("write the notes");
    await page.click("button:has-text('Redo')");
    await page.waitForSelector(".status:has-text('Redone')", WAIT);
    expect(fs.readFileSync(file, "utf8")).toBe("hello from the web\n");
    expect((await client.sessionCheckpoints({ id: sessionId })).hidden).toEqual([]);
    await page.waitForSelector(".msg.user:has-text('write the notes')", WAIT);
  });

  it("switches the permission mode (the server's answer is what the picker shows)", async () => {
    await page.selectOption("select", "plan");
    await page.waitForSelector(".status:has-text('Mode: plan')", WAIT);
    expect((await srv.api<{ mode: string }>("GET", `${sessionPath()}/permission-mode`)).body.mode).toBe("plan");
    await page.selectOption("select", "default");
    await page.waitForSelector(".status:has-text('Mode: default')", WAIT);
  });

  it("follows a turn another client drives (live over SSE), and after a reload shows the same session", async () => {
    fake.enqueue({ text: "answered for **the other client**", streamMs: 600 });
    const sent = await srv.api<{ turnId: string }>("POST", `${sessionPath()}/prompt`, { text: "from another client" });
    expect(sent.status).toBe(202);
    await page.waitForSelector(".msg.user:has-text('from another client')", WAIT);
    await page.waitForSelector(".msg.assistant:not(.streaming) strong:has-text('the other client')", WAIT);

    await page.reload({ waitUntil: "load" });
    await page.waitForSelector(".msg.assistant strong:has-text('the other client')", WAIT);
    expect(await page.evaluate(() => location.hash)).toBe(`#/s/${sessionId}`);
    const chat = await page.textContent(".chat");
    expect(chat).toContain("show me code");
    expect(chat).toContain("wrote notes.txt");
    expect(await page.getAttribute(".sessions a[aria-current=page]", "href")).toBe(`#/s/${sessionId}`);
  });

  it("a dropped stream reconnects with Last-Event-ID (the browser's own): the server replays what came after it", async () => {
    // this session's events so far, from the server's ring: the last turn starts at `start`
    const ring = await SseReader.open(`${srv.url}${sessionPath()}/event?lastEventId=0`);
    const ends = await ring.waitFor((e) => e.event === "turn_end" && String(e.data.text ?? "").includes("the other client"));
    ring.close();
    const start = [...ring.events].reverse().find((e) => e.event === "turn_start" && (e.id ?? 0) < (ends.id ?? 0))!.id!;
    const p2 = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      let first = true;
      // the first stream ends after one event whose id is just before that turn (retry in 50 ms); the
      // reconnect reaches the server, which can only replay the turn if the browser sent Last-Event-ID
      await p2.route(`**${sessionPath()}/event`, async (route) => {
        if (!first) return route.continue();
        first = false;
        await route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body: `retry: 50\nid: ${start - 1}\nevent: notice\ndata: {"type":"notice","level":"info","text":"before the cut"}\n\n` });
      });
      await p2.goto(`${srv.url}/#/s/${sessionId}`, { waitUntil: "load" });
      await p2.waitForSelector(".status:has-text('Answer complete')", WAIT);
      expect(first).toBe(false);
      await p2.waitForFunction(() => !document.querySelector(".streaming"), undefined, WAIT);
    } finally {
      await p2.close();
    }
  });

  it("works from the keyboard alone: Tab reaches the prompt, Ctrl+Enter sends, focus is visible", async () => {
    fake.enqueue({ text: "typed with keys" });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let onPrompt = false;
    for (let i = 0; i < 40 && !onPrompt; i++) {
      await page.keyboard.press("Tab");
      onPrompt = await page.evaluate(() => document.activeElement?.id === "prompt");
    }
    expect(onPrompt).toBe(true);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe("none");
    await page.keyboard.type("hello by keyboard");
    await page.keyboard.press("Control+Enter");
    await page.waitForSelector(".msg.assistant:not(.streaming):has-text('typed with keys')", WAIT);
  });

  it("has no serious or critical axe violations at desktop and phone width; at 375 px nothing scrolls sideways", async () => {
    expect(await axeSerious(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.waitForFunction(() => window.innerWidth === 375, undefined, WAIT);
    expect(await axeSerious(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // every control can be reached: inside the page's width once scrolled to
    for (const sel of ["#prompt", "button[type=submit]", "select", "button:has-text('Undo')", "button:has-text('New session')"]) {
      const el = page.locator(sel).first();
      await el.scrollIntoViewIfNeeded();
      const box = await el.boundingBox();
      expect(box, sel).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("had no console errors so far; then refuses a request to another origin (CSP connect-src 'self')", async () => {
    expect(errors).toEqual([]);
    const before = fake.requests.length;
    const r = await page.evaluate(async (other) => {
      const seen: string[] = [];
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      try {
        await fetch(`${other}/v1/messages`, { method: "POST", body: "{}" });
        return { fetched: true, seen };
      } catch (e) {
        await new Promise((res) => setTimeout(res, 50));
        return { fetched: false, error: String(e), seen };
      }
    }, fake.url);
    expect(r.fetched).toBe(false);
    expect(r.seen.join("\n")).toMatch(/connect-src/);
    expect(fake.requests.length).toBe(before);
  });
});

describe("oceancode web behind basic auth", () => {
  it("with OC_SERVER_PASSWORD: 401 without credentials; the page loads and lists sessions with them", async () => {
    const env = { ...anthropicEnv(sb, fake.url), OC_SERVER_PASSWORD: "web-pass-1" };
    const web = await startServe(["--directory", sb.project], { env, command: "web" });
    const url = web.url;
    try {
      const bare = await fetch(`${url}/`);
      expect(bare.status).toBe(401);
      expect(bare.headers.get("www-authenticate")).toMatch(/^Basic/);
      expect((await fetch(`${url}/web/app.js`)).status).toBe(401);
      const ctx = await browser.newContext({ httpCredentials: { username: "oceancode", password: "web-pass-1" } });
      try {
        const p = await ctx.newPage();
        const errs = consoleErrors(p);
        await p.goto(`${url}/`, { waitUntil: "load" });
        // the stored sessions are listed (the first server holds them open: this one starts its own)
        await p.waitForSelector(`.sessions a[href="#/s/${sessionId}"]`, WAIT);
        await p.fill("#model", MODEL);
        await p.click("button:has-text('New session')");
        await p.waitForSelector(".chat[data-connected=yes]", WAIT);
        fake.enqueue({ text: "behind *auth*" });
        await p.fill("#prompt", "hello through auth");
        await p.click("button[type=submit]");
        await p.waitForSelector(".msg.assistant:not(.streaming) em:has-text('auth')", WAIT);
        expect(errs).toEqual([]);
      } finally {
        await ctx.close();
      }
    } finally {
      await web.stop("SIGKILL");
    }
  });
});
