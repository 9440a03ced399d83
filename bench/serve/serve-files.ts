/**
 * Issue 33's workspace routes of `oceancode serve`: median and p90 latency of GET /file/find (fuzzy over
 * the whole tree: the walk with .gitignore, then fuzzysort) on projects of `--sizes` files, of GET
 * /file/content (a 200 KB file, capped at 256 KiB), GET /file/list, GET /config, GET /model and GET /doctor.
 * "first" is one request on its own (find walks the tree; the walk is then kept 3 s, as a person types).
 * The compiled CLI on an ephemeral port in a temp HOME and project. Run:
 *   node dist/bench/serve/serve-files.js [--sizes 1000,10000,50000] [--runs 30]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const { values } = parseArgs({ options: { sizes: { type: "string", default: "1000,10000,50000" }, runs: { type: "string", default: "30" } } });
const SIZES = values.sizes.split(",").map(Number);
const RUNS = Number(values.runs);

/** n files in a tree of 3 levels, names a person might search for */
function makeTree(dir: string, n: number): void {
  const words = ["button", "server", "config", "parser", "index", "utils", "router", "store", "table", "modal"];
  for (let i = 0; i < n; i++) {
    const d = path.join(dir, "src", words[i % 10]!, `${words[(i >> 3) % 10]}${i % 97}`);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, `${words[(i >> 1) % 10]}-${i}.ts`), `export const v${i} = ${i};\n`);
  }
  fs.writeFileSync(path.join(dir, "big.txt"), "x".repeat(200 * 1024));
}

async function serve(project: string, home: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [CLI, "--directory", project, "serve", "--port", "0"], { env: homeEnv(home, path.join(home, "managed.json")), stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const t = setTimeout(() => reject(new Error("serve did not start in 30 s")), 30_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) {
        clearTimeout(t);
        resolve((JSON.parse(out.slice(0, out.indexOf("\n"))) as { url: string }).url);
      }
    });
  });
  return { url, stop: () => new Promise<void>((r) => (child.once("exit", () => r()), child.kill("SIGTERM"))) };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function time(url: string, p: string): Promise<{ first: number; p50: number; p90: number }> {
  const ms: number[] = [];
  // the first request alone (find's walk is cached for 3 s after it), the first one after 3.5 s idle too
  const t = performance.now();
  await (await fetch(url + p)).arrayBuffer();
  const first = performance.now() - t;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await fetch(url + p);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    ms.push(performance.now() - t0);
  }
  return { first, p50: pct(ms, 0.5), p90: pct(ms, 0.9) };
}

console.log("files    route                          first ms   p50 ms   p90 ms");
for (const n of SIZES) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-files-"));
  const project = path.join(root, "project");
  const home = path.join(root, "home");
  fs.mkdirSync(home, { recursive: true });
  makeTree(project, n);
  const s = await serve(project, home);
  try {
    for (const p of ["/file/find?query=btnidx", "/file/content?path=big.txt", "/file/list?path=src", "/config", "/model", "/doctor"]) {
      const r = await time(s.url, p);
      console.log(`${String(n).padStart(6)}   ${p.padEnd(30)} ${r.first.toFixed(1).padStart(8)}  ${r.p50.toFixed(1).padStart(7)}  ${r.p90.toFixed(1).padStart(7)}`);
    }
  } finally {
    await s.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
