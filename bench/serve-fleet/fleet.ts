/**
 * Fleet figures (issue 19, "Measure"): `oceancode serve` instances on one PostgreSQL database (storage-postgres
 * selected with extensions.replace, $OC_DATABASE_URL, the serve-fleet extension), all in one sitting:
 *  1. throughput with 1, 2 and 3 instances (`--instances`), each count on a fresh database: `--sessions`
 *     sessions created and prompted through the instances round-robin, all at once, each a scripted turn of
 *     `--steps` tool steps (a `read` of a small file, delay 0) and a closing text step; sessions finished per
 *     wall second, steps per second, and the ratios to one instance; `--repeats` batches per count on the same
 *     instances, the median batch reported (one batch is a couple of seconds: noisy on a shared machine); each
 *     session streamed on its own instance's GET /session/:id/event; CPU per step (/proc: the instances, this
 *     PostgreSQL's processes, this client) and how many CPUs they kept busy, to tell CPU from waiting;
 *  2. takeover latency, `--rounds` rounds: three instances (the default sweep, $OC_FLEET_SWEEP_MS unset), a
 *     session running a long scripted turn (steps of 200 ms) on instance A; after its 3rd step_end A is
 *     `kill -9`ed; the time from the kill to the continuation's first step_end seen on the others' SSE, beside
 *     the normal gap between two step_ends of the same turn; p50/p99 of both and of the difference;
 *  3. write amplification per step, PostgreSQL against SQLite: runs bench/storage-postgres/write-bench
 *     (the same measurement as docs/storage-postgres.md, "Measured") and prints its lines.
 * A throwaway PostgreSQL (test/kit/postgres.ts: runs as the postgres user, fsync off); the compiled CLI
 * on ephemeral ports in an empty temp HOME and project; the scripted model (no network). Every server and
 * PostgreSQL are stopped at the end and on error or a signal (SIGKILL for what is left), the temp dirs removed.
 * Run: node dist/bench/serve-fleet/fleet.js [--sessions 30] [--steps 5] [--instances 1,2,3] [--repeats 3] [--rounds 10] [--write-steps 2000]
 *        [--only throughput|takeover|writes]
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { homeEnv } from "../../test/kit/fakes/home-env.js";
import { startPostgres, type TestPostgres } from "../../test/kit/postgres.js";
import { cpuOf, pgCpu, pgSpent } from "./cpu.js";
import { firstSeen, Sse, type Ev } from "./sse.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const WRITE_BENCH = path.join(ROOT, "dist", "extensions", "storage-postgres", "bench", "write-bench.js");

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "30" },
    steps: { type: "string", default: "5" },
    instances: { type: "string", default: "1,2,3" },
    repeats: { type: "string", default: "3" },
    rounds: { type: "string", default: "10" },
    "write-steps": { type: "string", default: "2000" },
    only: { type: "string" },
  },
});
const SESSIONS = Number(values.sessions);
const STEPS = Number(values.steps);
const COUNTS = values.instances.split(",").map(Number).filter((n) => n > 0);
const REPEATS = Math.max(1, Number(values.repeats));
const ROUNDS = Number(values.rounds);
const WRITE_STEPS = Number(values["write-steps"]);
const ONLY = values.only;
if (ONLY !== undefined && !["throughput", "takeover", "writes"].includes(ONLY)) {
  process.stderr.write("--only takes throughput, takeover or writes\n");
  process.exit(2);
}
const doing = (what: string) => ONLY === undefined || ONLY === what;

// ---- what must go at the end, on error and on a signal ----
const children = new Set<ChildProcess>();
let pgServer: TestPostgres | undefined;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-fleet-"));
function cleanup(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  children.clear();
  try {
    pgServer?.stop();
  } catch (e) {
    process.stderr.write(`stopping PostgreSQL: ${(e as Error).message}\n`);
  }
  fs.rmSync(root, { recursive: true, force: true });
}
process.on("exit", cleanup);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    process.stderr.write(`fleet bench: ${sig}, stopping\n`);
    process.exit(130); // the exit handler cleans up
  });
}

// ---- the sandbox: an empty HOME whose user config selects storage-postgres, a project with the scripts ----
const home = path.join(root, "home");
const project = path.join(root, "project");
fs.mkdirSync(path.join(home, ".config", "oceancode"), { recursive: true });
fs.mkdirSync(project, { recursive: true });
fs.writeFileSync(path.join(home, ".config", "oceancode", "oceancode.jsonc"), JSON.stringify({ extensions: { replace: { storage: "storage-postgres" } } }));
fs.writeFileSync(path.join(project, "a.txt"), "alpha\nbeta\ngamma\n");
const read = { name: "read", input: { file_path: "a.txt" } };
fs.writeFileSync(path.join(project, "work.json"), JSON.stringify({ steps: [{ repeat: STEPS, text: "step {{n}}", delay_ms: 0, tool_calls: [read] }, { text: "finished" }] }));
const TAKEOVER_STEP_MS = 200;
const KILL_AFTER_STEP = 3;
fs.writeFileSync(path.join(project, "long.json"), JSON.stringify({ steps: [{ repeat: 8, text: "step {{n}}", delay_ms: TAKEOVER_STEP_MS, tool_calls: [read] }, { text: "finished" }] }));
const baseEnv = homeEnv(home, path.join(root, "managed.json"));

// ---- instances ----
interface Instance {
  name: string;
  url: string;
  proc: ChildProcess;
  stderr: () => string;
}

async function startInstance(name: string, dbUrl: string, extra: NodeJS.ProcessEnv = {}): Promise<Instance> {
  const proc = spawn(process.execPath, [CLI, "--directory", project, "serve", "--port", "0"], {
    cwd: project,
    env: { ...baseEnv, OC_DATABASE_URL: dbUrl, OC_INSTANCE_ID: name, ...extra },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(proc);
  let err = "";
  proc.stderr!.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 30 s:\n${err}`)), 30_000);
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve((JSON.parse(out.slice(0, nl)) as { url: string }).url);
      }
    });
    proc.on("exit", (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? sig}) before listening:\n${err}`));
    });
  });
  proc.stdout!.resume();
  return { name, url, proc, stderr: () => err };
}

async function stopInstance(i: Instance, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const p = i.proc;
  if (p.exitCode === null && p.signalCode === null) {
    const gone = new Promise<void>((r) => p.once("exit", () => r()));
    p.kill(signal);
    const t = setTimeout(() => p.kill("SIGKILL"), 5_000);
    await gone;
    clearTimeout(t);
  }
  children.delete(p);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function api<T>(base: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${base}${p}`, { method, agent, headers: data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : undefined) as T }));
    });
    req.on("error", reject);
    req.end(data);
  });
}
async function create(base: string, model: string): Promise<string> {
  const created = await api<{ id: string }>(base, "POST", "/session", { model });
  if (created.status !== 201) throw new Error(`POST /session answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body.id;
}
async function prompt(base: string, id: string, text: string): Promise<void> {
  const prompted = await api<{ turnId: string }>(base, "POST", `/session/${id}/prompt`, { text });
  if (prompted.status !== 202) throw new Error(`POST /session/:id/prompt answered ${prompted.status}: ${JSON.stringify(prompted.body)}`);
}
async function createAndPrompt(base: string, model: string, text: string): Promise<string> {
  const id = await create(base, model);
  await prompt(base, id, text);
  return id;
}

/** One turn of a fresh session on `i`, waited for on its own SSE (opened before the prompt). */
async function oneTurn(i: Instance, model: string): Promise<void> {
  let id = "";
  const seen = new Set<string>();
  let hit: () => void = () => undefined;
  const got = new Promise<void>((r) => (hit = r));
  const s = new Sse(i.name, i.url, (e) => {
    if (e.event !== "turn_done") return;
    seen.add(String(e.data.sessionId));
    if (e.data.sessionId === id) hit();
  });
  await s.ready;
  id = await createAndPrompt(i.url, model, "warm up");
  if (seen.has(id)) hit();
  let t: NodeJS.Timeout | undefined;
  await Promise.race([got, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`warm-up turn on ${i.name} did not finish in 60 s:\n${i.stderr()}`)), 60_000)))]);
  clearTimeout(t);
  s.close();
}

// ---- figures ----
const say = (s: string) => process.stdout.write(`${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const ms = (x: number) => `${Math.round(x).toLocaleString("en")} ms`;

async function throughput(pg: TestPostgres): Promise<void> {
  say(`\n# throughput: ${SESSIONS} sessions at once, each one turn of ${STEPS} tool steps (read a.txt, delay 0) + a closing text step, created and prompted round-robin`);
  const rows: Array<{ n: number; sps: number; stepsPs: number; wall: number; steps: number; p50: number; p99: number }> = [];
  for (const n of COUNTS) {
    const db = await pg.createDatabase(`fleet_tp_${n}`);
    const inst: Instance[] = [];
    for (let k = 0; k < n; k++) inst.push(await startInstance(`tp${n}-${k}`, db));
    try {
      // warm-up: one short turn on each instance (the store migrates at its first write; tools load)
      for (const i of inst) await oneTurn(i, "scripted/work.json");
      // each session's own stream (GET /session/:id/event) on the instance that runs it, opened before its prompt:
      // what is counted is the work, not the fan-out to SSE clients on the other instances
      const stepKeys = new Set<string>();
      const done = new Map<string, number>();
      const bad: string[] = [];
      let onDone: () => void = () => undefined;
      const sink = (e: Ev) => {
        const sid = String(e.data.sessionId);
        if (e.event === "step_end") stepKeys.add(`${sid}|${String(e.data.turn)}|${String(e.data.step)}`);
        else if (e.event === "turn_done" && !done.has(sid)) {
          done.set(sid, e.at);
          if (e.data.reason !== "end_turn") bad.push(`${sid}: ${String(e.data.reason)} ${String(e.data.error ?? "")}`);
          onDone();
        }
      };
      const pids = inst.map((i) => i.proc.pid!);
      const batches: Array<{ sps: number; stepsPs: number; wall: number; steps: number; lat: number[]; instMs: number; pgMs: number; selfMs: number }> = [];
      for (let b = 0; b < REPEATS; b++) {
        const started = new Map<string, number>();
        const sses: Sse[] = [];
        const [inst0, pg0, self0] = [cpuOf(pids), pgCpu(pg.port), process.cpuUsage()];
        const t0 = performance.now();
        const ids = await Promise.all(
          Array.from({ length: SESSIONS }, async (_, j) => {
            const ts = performance.now();
            const at = inst[j % n]!;
            const id = await create(at.url, "scripted/work.json");
            const sse = new Sse(at.name, at.url, sink, `/session/${id}/event`);
            sses.push(sse);
            await sse.ready;
            await prompt(at.url, id, `task ${b}.${j}`);
            started.set(id, ts);
            return id;
          }),
        );
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error(`${n} instance(s): ${ids.filter((id) => !done.has(id)).length} of ${SESSIONS} sessions unfinished after 300 s`)), 300_000);
          onDone = () => {
            if (ids.every((id) => done.has(id))) {
              clearTimeout(t);
              resolve();
            }
          };
          onDone();
        });
        const instMs = cpuOf(pids) - inst0;
        const pgMs = pgSpent(pg0, pgCpu(pg.port));
        const self = process.cpuUsage(self0);
        for (const sse of sses) sse.close();
        if (bad.length) throw new Error(`${n} instance(s): turns that did not end normally: ${bad.join("; ")}`);
        const wall = (Math.max(...ids.map((id) => done.get(id)!)) - t0) / 1000;
        const steps = [...stepKeys].filter((k) => ids.includes(k.slice(0, k.indexOf("|")))).length;
        batches.push({ sps: SESSIONS / wall, stepsPs: steps / wall, wall, steps, lat: ids.map((id) => done.get(id)! - started.get(id)!), instMs, pgMs, selfMs: (self.user + self.system) / 1000 });
      }
      // the batch of median wall time stands for this count; all batches' sessions/s are listed beside it
      const med = [...batches].sort((x, y) => x.wall - y.wall)[Math.floor((batches.length - 1) / 2)]!;
      const lat = batches.flatMap((x) => x.lat);
      const row = { n, sps: med.sps, stepsPs: med.stepsPs, wall: med.wall, steps: med.steps, p50: pct(lat, 50), p99: pct(lat, 99) };
      rows.push(row);
      say(
        `${n} instance(s): ${SESSIONS} sessions, ${med.steps} steps in ${med.wall.toFixed(2)} s (median of ${REPEATS} batches): ${row.sps.toFixed(2)} sessions/s, ${row.stepsPs.toFixed(1)} steps/s ` +
          `(batches: ${batches.map((x) => x.sps.toFixed(1)).join(", ")} sessions/s); prompt to turn_done p50 ${ms(row.p50)}, p99 ${ms(row.p99)}`,
      );
      say(
        `  CPU per step (that batch): instances ${(med.instMs / med.steps).toFixed(2)} ms, PostgreSQL ${(med.pgMs / med.steps).toFixed(2)} ms, this client ${(med.selfMs / med.steps).toFixed(2)} ms; ` +
          `all three kept ${((med.instMs + med.pgMs + med.selfMs) / 1000 / med.wall).toFixed(2)} of ${os.cpus().length} CPUs busy`,
      );
    } finally {
      for (const i of inst) await stopInstance(i);
    }
  }
  const one = rows.find((r) => r.n === 1);
  if (one) {
    for (const r of rows.filter((x) => x.n !== 1)) say(`ratio ${r.n}/1: sessions/s ${(r.sps / one.sps).toFixed(2)}, steps/s ${(r.stepsPs / one.stepsPs).toFixed(2)}`);
  }
  say(
    `(this machine has ${os.cpus().length} CPUs, shared by the instances, PostgreSQL, this client and whatever else runs: more instances cannot give more CPU than that. An instance runs its JavaScript on one core, so up to the CPU count a second instance may use an idle core; past it the ratio can only stay level. ` +
      `Read the ratio with the CPU lines: every event goes to every instance through NOTIFY, so the CPU a step costs grows with the instance count; when the CPUs kept busy stay level and the CPU per step explains the wall time, ` +
      `nothing serializes on the database; fewer CPUs kept busy with more instances (idle time while work is waiting) would mean the instances wait on each other there)`,
  );
}

async function takeover(pg: TestPostgres): Promise<void> {
  say(`\n# takeover: ${ROUNDS} rounds, 3 instances, sweep at its default (1 s); a turn of 8 steps of ${TAKEOVER_STEP_MS} ms on A, A killed -9 after step ${KILL_AFTER_STEP}`);
  const db = await pg.createDatabase("fleet_takeover");
  const slots: Instance[] = [];
  for (let k = 0; k < 3; k++) slots.push(await startInstance(`to-0-${k}`, db));
  const gaps: number[] = [];
  const normal: number[] = [];
  const added: number[] = [];
  const firstEvent: number[] = [];
  try {
    // warm-up: one turn on each (the first write migrates; tools load)
    for (const i of slots) await oneTurn(i, "scripted/echo");
    for (let r = 0; r < ROUNDS; r++) {
      const a = r % 3;
      const others = [0, 1, 2].filter((k) => k !== a).map((k) => slots[k]!);
      // SSE on the two others; an event counts when the first of them sees it
      const subs: Array<(e: Ev) => void> = [];
      const sses = others.map((o) => new Sse(o.name, o.url, (e) => subs.forEach((f) => f(e))));
      await Promise.all(sses.map((s) => s.ready));
      const sinks = (f: (e: Ev) => void) => void subs.push(f);
      // step → when the first of the two streams saw its step_end (both see every event)
      const stepEndAt = new Map<number, number>();
      let id = "";
      subs.push((e) => {
        const step = Number(e.data.step);
        if (e.event === "step_end" && e.data.sessionId === id && step <= KILL_AFTER_STEP && !stepEndAt.has(step)) stepEndAt.set(step, e.at);
      });
      const pid = slots[a]!.proc.pid;
      const before = firstSeen(sinks, (e) => e.event === "step_end" && e.data.sessionId === id && e.data.step === KILL_AFTER_STEP, 30_000, `step_end ${KILL_AFTER_STEP}`);
      id = await createAndPrompt(slots[a]!.url, "scripted/long.json", `long task ${r}`);
      const killedAt = await before;
      const killedTurn = Number(killedAt.data.turn);
      const started = firstSeen(sinks, (e) => e.event === "turn_start" && e.data.sessionId === id && Number(e.data.turn) > killedTurn, 30_000, "the continuation's turn_start");
      const next = firstSeen(sinks, (e) => e.event === "step_end" && e.data.sessionId === id && Number(e.data.turn) > killedTurn, 30_000, "the continuation's first step_end");
      const finished = firstSeen(sinks, (e) => e.event === "turn_done" && e.data.sessionId === id && e.data.reason === "end_turn", 60_000, "the continuation's turn_done");
      const tKill = performance.now();
      process.kill(pid!, "SIGKILL");
      const [s1, s2] = await Promise.all([started, next]);
      const gap = s2.at - tKill;
      const stepEnds = [...stepEndAt.entries()].sort((x, y) => x[0] - y[0]).map(([, at]) => at);
      const roundNormal = stepEnds.slice(1).map((t, i) => t - stepEnds[i]!);
      const medNormal = pct(roundNormal, 50);
      gaps.push(gap);
      normal.push(...roundNormal);
      added.push(gap - medNormal);
      firstEvent.push(s1.at - tKill);
      say(`round ${r + 1}: kill -9 ${slots[a]!.name} → turn_start on ${s1.on} +${ms(s1.at - tKill)}, first step_end +${ms(gap)} (normal step gap ${ms(medNormal)}: takeover added ${ms(gap - medNormal)})`);
      await finished;
      for (const s of sses) s.close();
      await stopInstance(slots[a]!, "SIGKILL");
      slots[a] = await startInstance(`to-${r + 1}-${a}`, db);
    }
  } finally {
    for (const i of slots) await stopInstance(i);
  }
  say(`normal gap between two step_ends of a turn (${normal.length} gaps, steps of ${TAKEOVER_STEP_MS} ms): p50 ${ms(pct(normal, 50))}, p99 ${ms(pct(normal, 99))}`);
  say(`kill -9 → the continuation's turn_start on another instance: p50 ${ms(pct(firstEvent, 50))}, p99 ${ms(pct(firstEvent, 99))}`);
  say(`kill -9 → the continuation's first step_end: p50 ${ms(pct(gaps, 50))}, p99 ${ms(pct(gaps, 99))}`);
  say(`added by the takeover (that gap − the round's normal step gap): p50 ${ms(pct(added, 50))}, p99 ${ms(pct(added, 99))}`);
  say(
    `(what bounds it: the sweep, each live instance looking every 1 s ($OC_FLEET_SWEEP_MS) on its own phase for running turns whose session lock is free, so at most one interval passes before one notices (with two survivors about a third of it on average); and the lock's release, as soon as PostgreSQL sees the killed process's connection close: at once for a killed process on a live machine, only after TCP keepalive for a lost machine. Then the claim, loading the session from the database and the continuation turn's start, and its first step)`,
  );
}

async function writes(pg: TestPostgres): Promise<void> {
  say(`\n# write amplification per step (bench/storage-postgres/write-bench, ${WRITE_STEPS} steps of 2 KB tool output)`);
  const db = await pg.createDatabase("fleet_writes");
  const child = spawn(process.execPath, [WRITE_BENCH, db, String(WRITE_STEPS)], { stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
  children.delete(child);
  for (const l of out.trim().split("\n")) say(l);
  if (code !== 0) throw new Error(`write-bench exited ${code}`);
  const fig = (name: string) => {
    const m = new RegExp(`^${name}.*amplification ([\\d.]+)x, ([\\d.]+) KB/step`, "m").exec(out);
    return m ? { amp: Number(m[1]), kb: Number(m[2]) } : undefined;
  };
  const p = fig("postgres");
  const s = fig("sqlite");
  if (p && s) say(`per step: PostgreSQL ${p.kb} KB (${p.amp}x the payload, WAL only: checkpointed table pages come on top), SQLite ${s.kb} KB (${s.amp}x, WAL and checkpoints)`);
}

say(`fleet bench: node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim()}), load ${os.loadavg()[0]!.toFixed(2)}`);
try {
  pgServer = await startPostgres();
  const pgs = pgServer;
  say(`PostgreSQL on 127.0.0.1:${pgs.port} (throwaway, fsync off)`);
  if (doing("throughput")) await throughput(pgs);
  if (doing("takeover")) await takeover(pgs);
  if (doing("writes")) await writes(pgs);
  say(`\nload at the end: ${os.loadavg()[0]!.toFixed(2)}`);
} catch (e) {
  process.stderr.write(`fleet bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
} finally {
  agent.destroy();
  for (const c of [...children]) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  cleanup();
}
