/**
 * The browser side of the web client's tests: Debian's Chromium (/usr/bin/chromium) driven by
 * playwright-core (no browser download), axe-core run inside the page, and the page's console errors.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"], timeout: 30_000 });
}

/** Every console error and uncaught page error of `page`, as they come. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core's serious and critical violations on the page as it is now (injected through the devtools protocol, which the page's CSP does not govern). */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const r = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const out = await axe.run(document, { resultTypes: ["violations"] });
    return out.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return r.filter((v) => v.impact === "serious" || v.impact === "critical");
}
