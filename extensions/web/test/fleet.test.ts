/**
 * The web client through a fleet: two `serve --web` instances on one throwaway PostgreSQL database. The
 * page comes from B; the session is held by A. The page lists it, shows its rows (the store is shared),
 * sends a prompt (B forwards it to A) and renders the answer streamed from A through the fleet.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetFixture } from "../../serve-fleet/test/fleet-helpers.js";
import { startServe, type Served } from "../../serve/test/serve-helpers.js";
import { consoleErrors, launch } from "./web-helpers.js";

const fx = fleetFixture("webfleet");
const WAIT = { timeout: 20_000 };
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe("the web client on a fleet", () => {
  it("a page from instance B follows and drives a session instance A holds", async () => {
    const env = { ...fx.sb.env, OC_DATABASE_URL: fx.url, OC_FLEET_SWEEP_MS: "200" };
    const started: Served[] = [];
    try {
      const a = await startServe(["--directory", fx.sb.project, "--web"], { env: { ...env, OC_INSTANCE_ID: "web-a" } });
      started.push(a);
      const b = await startServe(["--directory", fx.sb.project, "--web"], { env: { ...env, OC_INSTANCE_ID: "web-b" } });
      started.push(b);
      const id = (await a.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
      const first = await a.api<{ turnId: string }>("POST", `/session/${id}/prompt`, { text: "on instance a" });
      expect(first.status).toBe(202);
      for (let i = 0; i < 200; i++) {
        const s = (await a.api<{ running?: string; queued?: number }>("GET", `/session/${id}`)).body;
        if (!s.running && !s.queued) break;
        await new Promise((r) => setTimeout(r, 50));
      }

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors = consoleErrors(page);
      await page.goto(`${b.url}/#/s/${id}`, { waitUntil: "load" });
      await page.waitForSelector(".msg.assistant:has-text('ok: on instance a')", WAIT);
      await page.waitForSelector(".chat[data-connected=yes]", WAIT);
      await page.fill("#prompt", "from the page on b");
      await page.click("button[type=submit]");
      await page.waitForSelector(".msg.assistant:has-text('ok: from the page on b')", WAIT);
      // the session stayed on A (B forwarded the prompt)
      expect((await a.api<{ claims: string[] }>("GET", "/health")).body.claims).toEqual([id]);
      expect((await b.api<{ claims: string[] }>("GET", "/health")).body.claims).toEqual([]);
      // what B cannot answer for a session A holds (meter, todos, mode, checkpoints) is a 409 the browser
      // logs; nothing else went wrong in the page
      expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
      await page.close();
    } finally {
      for (const s of started) await s.stop("SIGKILL");
    }
  }, 90_000);
});
