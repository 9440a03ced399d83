/**
 * `oceancode serve` figures (issue 16):
 *  - requests/second of GET /session/:id (keep-alive, `--concurrency` requests in flight);
 *  - events/second through SSE to `--clients` clients on GET /event (a scripted turn streaming `--events` text deltas);
 *  - the server's RSS at start, and with `--sessions` idle sessions (each prompted once, then left open).
 * The compiled CLI on an ephemeral port in an empty temp HOME and project; the scripted model (no network).
 * Run: node dist/bench/serve/serve.js [--requests 20000] [--concurrency 32] [--clients 100] [--events 2000] [--sessions 100]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { homeEnv } from "../../test/kit/fakes/home-env.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "32" },
    clients: { type: "string", default: "100" },
    events: { type: "string", default: "2000" },
    sessions: { type: "string", default: "100" },
  },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const CLIENTS = Number(values.clients);
const EVENTS = Number(values.events);
const SESSIONS = Number(values.sessions);

const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-serve-"));
const home = path.join(root, "home");
const project = path.join(root, "project");
fs.mkdirSync(home, { recursive: true });
fs.mkdirSync(project, { recursive: true });
// one step streaming EVENTS text deltas (words: the engine is slow on one very long word)
fs.writeFileSync(path.join(project, "stream.json"), JSON.stringify({ steps: [], after: { text: "the quick brown fox jumps. ".repeat(EVENTS), chunks: EVENTS } }));

const child = spawn(process.execPath, [CLI, "--directory", project, "serve", "--port", "0"], { env: homeEnv(home, path.join(root, "managed.json")), stdio: ["ignore", "pipe", "inherit"] });
const { url } = await new Promise<{ url: string }>((resolve) => {
  let out = "";
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes("\n")) resolve(JSON.parse(out.slice(0, out.indexOf("\n"))) as { url: string });
  });
});
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, CLIENTS) + 8 });

function request(method: string, p: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${url}${p}`, { method, agent, headers: data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(data);
  });
}
const json = async <T>(method: string, p: string, body?: unknown) => JSON.parse((await request(method, p, body)).text) as T;

function rssMb(): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** A raw SSE client on /event: counts events, resolves when one of `type` for `sessionId` arrives. */
function sseClient(): { ready: Promise<void>; count: () => number; until: (type: string, sessionId: string) => Promise<void>; close: () => void } {
  let n = 0;
  let connected!: () => void;
  const ready = new Promise<void>((r) => (connected = r));
  let buf = "";
  const waits: Array<{ type: string; sessionId: string; resolve: () => void }> = [];
  const req = http.get(`${url}/event`, { agent: false }, (res) => {
    connected();
    res.setEncoding("utf8");
    res.on("data", (c: string) => {
      buf += c;
      let end: number;
      while ((end = buf.indexOf("\n\n")) >= 0) {
        const frame = buf.slice(0, end);
        buf = buf.slice(end + 2);
        if (!frame.startsWith("id: ")) continue;
        n += 1;
        for (const w of [...waits]) if (frame.includes(`\nevent: ${w.type}\n`) && frame.includes(`"sessionId":"${w.sessionId}"`)) {
          waits.splice(waits.indexOf(w), 1);
          w.resolve();
        }
      }
    });
  });
  req.on("error", () => undefined);
  return { ready, count: () => n, until: (type, sessionId) => new Promise((resolve) => waits.push({ type, sessionId, resolve })), close: () => req.destroy() };
}

const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  process.stdout.write(`${s}\n`);
};
say(`serve bench: node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim()}), load ${os.loadavg()[0]!.toFixed(2)}`);
await new Promise((r) => setTimeout(r, 500));
say(`RSS at start (no session): ${rssMb().toFixed(1)} MB`);

// 1. GET /session/:id
const { id } = await json<{ id: string }>("POST", "/session", { model: "scripted/echo" });
for (let i = 0; i < 500; i++) await request("GET", `/session/${id}`); // warm-up
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      next += 1;
      const r = await request("GET", `/session/${id}`);
      if (r.status !== 200) throw new Error(`GET /session/:id answered ${r.status}`);
    }
  }),
);
const reqS = REQUESTS / ((performance.now() - t0) / 1000);
say(`GET /session/:id: ${REQUESTS} requests, ${CONCURRENCY} in flight: ${Math.round(reqS).toLocaleString("en")} requests/s`);

// 2. events/s to CLIENTS SSE clients
const clients = Array.from({ length: CLIENTS }, () => sseClient());
await Promise.all(clients.map((c) => c.ready));
const { id: sid } = await json<{ id: string }>("POST", "/session", { model: "scripted/stream.json" });
const before = clients.map((c) => c.count());
const t1 = performance.now();
await request("POST", `/session/${sid}/prompt`, { text: "stream" });
await Promise.all(clients.map((c) => c.until("turn_done", sid)));
const secs = (performance.now() - t1) / 1000;
const per = clients.map((c, i) => c.count() - before[i]!);
const delivered = per.reduce((a, b) => a + b, 0);
say(`SSE: a turn of ${per[0]} events to ${CLIENTS} clients in ${(secs * 1000).toFixed(0)} ms: ${Math.round(per[0]! / secs).toLocaleString("en")} events/s per client, ${Math.round(delivered / secs).toLocaleString("en")} deliveries/s in all; every client got all: ${per.every((n) => n === per[0])}`);
for (const c of clients) c.close();

// 3. RSS with SESSIONS idle sessions
const ids = await Promise.all(Array.from({ length: SESSIONS }, async () => (await json<{ id: string }>("POST", "/session", { model: "scripted/echo" })).id));
const watcher = sseClient();
await watcher.ready;
await Promise.all(ids.map(async (s) => {
  const done = watcher.until("turn_done", s);
  await request("POST", `/session/${s}/prompt`, { text: "hello" });
  await done;
}));
watcher.close();
await new Promise((r) => setTimeout(r, 1000));
const health = await json<{ sessions: number }>("GET", "/health");
say(`RSS with ${health.sessions} open sessions (${SESSIONS} idle after one turn each): ${rssMb().toFixed(1)} MB`);

agent.destroy();
child.kill("SIGTERM");
await new Promise((r) => child.on("exit", r));
fs.rmSync(root, { recursive: true, force: true });
