/**
 * Regenerate the committed typed client (extensions/serve/client/index.ts) from a live server's OpenAPI
 * document: `node dist/extensions/serve/client/write.js [--check]`. It starts the compiled CLI's
 * `serve --port 0` in a throwaway HOME (every first-party route registered, nothing of yours read),
 * reads GET /doc, stops the server and writes the file; `--check` only compares and exits 1 on drift.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateClient, type OpenApiDoc } from "./generate.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/extensions/serve/client -> the repo root */
const root = path.resolve(here, "..", "..", "..", "..");
export const CLIENT_SOURCE = path.join(root, "extensions", "serve", "client", "index.ts");

/** The OpenAPI document of a fresh `oceancode serve` (first-party routes only). */
export async function liveDocument(): Promise<OpenApiDoc> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "oc-client-doc-"));
  const cli = path.join(root, "dist", "hosts", "cli", "main.js");
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_DATA_HOME: path.join(home, ".local", "share"), XDG_STATE_HOME: path.join(home, ".local", "state"), OC_MANAGED_CONFIG: path.join(home, "managed.json"), NO_COLOR: "1" };
  const child = spawn(process.execPath, [cli, "--directory", home, "serve", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      let err = "";
      const timer = setTimeout(() => reject(new Error(`serve did not start within 30 s: ${err.slice(-400)}`)), 30_000);
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.split("\n").find((l) => l.includes('"listening"'));
        if (line) {
          clearTimeout(timer);
          resolve((JSON.parse(line) as { url: string }).url);
        }
      });
      child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err.slice(-400)}`)));
    });
    const res = await fetch(`${url}/doc`);
    return (await res.json()) as OpenApiDoc;
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const source = generateClient(await liveDocument());
  const current = fs.existsSync(CLIENT_SOURCE) ? fs.readFileSync(CLIENT_SOURCE, "utf8") : "";
  if (process.argv.includes("--check")) {
    if (current === source) return 0;
    process.stderr.write(`${CLIENT_SOURCE} is not what the server's OpenAPI document generates; run: node dist/extensions/serve/client/write.js (it regenerates the client from the built server), then npm run build again\n`);
    return 1;
  }
  if (current !== source) fs.writeFileSync(CLIENT_SOURCE, source);
  process.stdout.write(`${current === source ? "unchanged" : "wrote"} ${path.relative(root, CLIENT_SOURCE)}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
