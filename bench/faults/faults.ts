/**
 * Fault figures (issue 28):
 *  - serve drain: `--sessions` sessions with `--per-session` prompts each (all answered 202, each turn a
 *    scripted answer after `--turn-ms`), SIGTERM once the first turn runs: the time to exit, how many
 *    prompts were finished and how many kept in serve-pending.json (serve.shutdown_timeout_s = `--drain-s`);
 *  - the fleet through a PostgreSQL restart: two instances on a throwaway server (storage.url in the user
 *    config), the server stopped (fast) and started again on the same data directory and port: the time
 *    from its return to each instance's /health 200, and to each one's first prompt accepted (202) and
 *    answered (its assistant row readable through the instance).
 * The compiled CLI in an empty temp HOME and project; the scripted model (no network).
 * Run: node dist/bench/faults/faults.js [--sessions 100] [--per-session 2] [--turn-ms 200] [--drain-s 30] [--only drain|restart]
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { homeEnv } from "../../test/kit/fakes/home-env.js";
import { startPostgres } from "../../test/kit/postgres.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "100" },
    "per-session": { type: "string", default: "2" },
    "turn-ms": { type: "string", default: "200" },
    "drain-s": { type: "string", default: "30" },
    only: { type: "string" },
  },
});

interface Box {
  root: string;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}
function box(config: object): Box {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-faults-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  fs.mkdirSync(path.join(home, ".config", "oceancode"), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(home, ".config", "oceancode", "oceancode.jsonc"), JSON.stringify(config));
  return { root, home, project, env: homeEnv(home, path.join(root, "managed.json")) };
}

interface Server {
  url: string;
  proc: ChildProcess;
  exited: Promise<number | null>;
}
async function serve(b: Box, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const proc = spawn(process.execPath, [CLI, "serve", "--port", "0", "--directory", b.project], { env: { ...b.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((r) => proc.on("exit", (c) => r(c)));
  proc.stderr!.resume();
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve((JSON.parse(out.slice(0, nl)) as { url: string }).url);
    });
    void exited.then((c) => reject(new Error(`serve exited ${c}`)));
  });
  return { url, proc, exited };
}
async function api<T>(s: Server, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await fetch(`${s.url}${p}`, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  const t = await r.text();
  return { status: r.status, body: (t ? JSON.parse(t) : undefined) as T };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => Promise<boolean>, limitMs = 120_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > end) throw new Error("bench: a wait ran past its bound");
    await sleep(20);
  }
}
async function answers(s: Server, id: string): Promise<number> {
  const r = await api<{ messages: Array<{ role: string }> }>(s, "GET", `/session/${id}/message?limit=1000`);
  return r.status === 200 ? r.body.messages.filter((m) => m.role === "assistant").length : -1;
}

async function drain(): Promise<void> {
  const sessions = Number(values.sessions);
  const per = Number(values["per-session"]);
  const b = box({ serve: { shutdown_timeout_s: Number(values["drain-s"]) } });
  fs.writeFileSync(path.join(b.project, "t.json"), JSON.stringify({ steps: [], after: { text: "answered", delay_ms: Number(values["turn-ms"]) } }));
  try {
    const s = await serve(b);
    const ids: string[] = [];
    for (let i = 0; i < sessions; i++) ids.push((await api<{ id: string }>(s, "POST", "/session", { model: "scripted/t.json" })).body.id);
    const sent = await Promise.all(ids.flatMap((id) => Array.from({ length: per }, (_, k) => api(s, "POST", `/session/${id}/prompt`, { text: `p${k}` }))));
    const accepted = sent.filter((r) => r.status === 202).length;
    const t0 = Date.now();
    s.proc.kill("SIGTERM");
    const code = await s.exited;
    const ms = Date.now() - t0;
    const pending = path.join(b.home, ".local", "share", "oceancode", "serve-pending.json");
    const kept = fs.existsSync(pending) ? (JSON.parse(fs.readFileSync(pending, "utf8")) as { prompts: unknown[] }).prompts.length : 0;
    // the answers, read back through a fresh server (which also runs what was kept)
    const again = await serve(b);
    let finished = 0;
    const count = async () => {
      finished = 0;
      for (const id of ids) finished += Math.max(0, await answers(again, id));
      return finished >= accepted;
    };
    await until(count, 180_000).catch(() => undefined); // the figure says how many, reached or not
    again.proc.kill("SIGKILL");
    console.log(`serve drain: ${sessions} sessions x ${per} prompts (${accepted} accepted, SIGTERM right after the last 202), turns of ${values["turn-ms"]} ms, serve.shutdown_timeout_s ${values["drain-s"]}`);
    console.log(`  exit ${code} after ${ms} ms; finished before exit: ${accepted - kept}; kept for the next start: ${kept}; answers stored once a fresh start ran the kept ones: ${finished}/${accepted}`);
  } finally {
    fs.rmSync(b.root, { recursive: true, force: true });
  }
}

async function restart(): Promise<void> {
  const pgs = await startPostgres();
  const url = await pgs.createDatabase("bench_restart");
  const b = box({ extensions: { replace: { storage: "storage-postgres" } }, storage: { url } });
  fs.writeFileSync(path.join(b.project, "t.json"), JSON.stringify({ steps: [], after: { text: "answered", delay_ms: 10 } }));
  const servers: Server[] = [];
  try {
    for (const name of ["a", "b"]) servers.push(await serve(b, { OC_INSTANCE_ID: `bench-${name}` }));
    const ids = await Promise.all(servers.map(async (s) => (await api<{ id: string }>(s, "POST", "/session", { model: "scripted/t.json" })).body.id));
    for (const [i, s] of servers.entries()) {
      await api(s, "POST", `/session/${ids[i]}/prompt`, { text: "warm" });
      await until(async () => (await answers(s, ids[i]!)) >= 1);
    }
    const t = Date.now();
    pgs.down();
    const downMs = Date.now() - t;
    for (const s of servers) await until(async () => (await api(s, "GET", "/health")).status === 503);
    pgs.up();
    const back = Date.now();
    const figures = await Promise.all(
      servers.map(async (s, i) => {
        await until(async () => (await api(s, "GET", "/health")).status === 200);
        const health = Date.now() - back;
        await until(async () => (await api(s, "POST", `/session/${ids[i]}/prompt`, { text: "after" })).status === 202);
        const accepted = Date.now() - back;
        await until(async () => (await answers(s, ids[i]!)) >= 2);
        return { health, accepted, answered: Date.now() - back };
      }),
    );
    console.log(`fleet through a PostgreSQL restart (stop took ${downMs} ms; both instances' /health 503 while it was down)`);
    for (const [i, f] of figures.entries()) console.log(`  instance bench-${"ab"[i]}: /health 200 after ${f.health} ms, first prompt accepted after ${f.accepted} ms, answered after ${f.answered} ms (from the database's return)`);
  } finally {
    for (const s of servers) s.proc.kill("SIGKILL");
    pgs.stop();
    fs.rmSync(b.root, { recursive: true, force: true });
  }
}

console.log(`node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)}`);
if (values.only !== "restart") await drain();
if (values.only !== "drain") await restart();
