/**
 * `oceancode inspect --errors`: every coded error there is (the kernel's and each enabled extension's
 * errors module: a bundled one's main, a third party's errors.js; imported without activating the extension), with code, owner, exit code, message and hint.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { visible } from "../obs/kit.js";
import { errorDefinitions, provideSelfModule, type CommandIO, type ErrorDefinition, type KernelIntrospection } from "../../kernel/api.js";

/** Import the errors module of every extension whose code may run (active or lazy: trusted and enabled). */
export async function loadErrorModules(info: KernelIntrospection): Promise<string[]> {
  const problems: string[] = [];
  for (const e of info.extensions) {
    if ((e.state !== "active" && e.state !== "lazy") || !e.codeDir) continue;
    // a bundled extension's definitions are in its bundled main (errors.ts is no bundle entry of its own, so a
    // run loads no extra file for it); a third party's in its errors.js. Importing a main does not activate it.
    const file = path.join(e.codeDir, e.tier === "bundled" ? (e.manifest?.main ?? "index.js") : "errors.js");
    if (!e.manifest?.main && e.tier === "bundled") continue;
    if (!fs.existsSync(file)) continue;
    try {
      if (e.tier !== "bundled") await provideSelfModule(); // its errors.js imports oceancode/kernel
      await import(pathToFileURL(file).href);
    } catch (err) {
      problems.push(`${e.qualifiedId}: ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return problems;
}

/** One row per code, sorted by code. */
export function errorsTable(defs: readonly ErrorDefinition[]): string {
  const head = ["CODE", "OWNER", "EXIT", "MESSAGE", "HINT"];
  const cols = defs.map((d) => [d.code, d.owner, String(d.exitCode), d.message, d.hint ?? ""]);
  const widths = head.map((h, i) => (i >= 3 ? 0 : Math.max(h.length, ...cols.map((c) => c[i]!.length))));
  const fmt = (c: string[]) => c.map((v, i) => (i < 3 ? v.padEnd(widths[i]!) : v)).join("  ").trimEnd();
  return [fmt(head), ...cols.map(fmt)].map((l) => visible(l)).join("\n");
}

export async function errorsCommand(info: KernelIntrospection, io: CommandIO, json: boolean): Promise<number> {
  const problems = await loadErrorModules(info);
  const defs = errorDefinitions();
  io.stdout.write(json ? `${JSON.stringify(defs, null, 2)}\n` : `${errorsTable(defs)}\n`);
  for (const p of problems) io.stderr.write(`oceancode inspect: warning: errors not listed: ${visible(p)}\n`);
  return 0;
}
