/**
 * Background jobs: `bash` with run_in_background starts one; `job_output` reads what it printed since the
 * last read (from its log file, so memory never grows with a chatty job) and `job_kill` stops its process
 * group. Jobs have no clock of their own; they end when they exit, on job_kill, when the run they belong to
 * ends and has a wall clock (the bounds extension calls the "jobs" service's killSession), or when this
 * process exits.
 *
 * A task job (startTaskJob, published in api.ts) is a job that is no process — a background sub-agent:
 * its owner writes its output and ends it; job_output reads it the same way, job_kill calls its cancel.
 */
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { StringDecoder } from "node:string_decoder";
import type { ChildProcess } from "node:child_process";
import type { SessionInfo, SpawnSpec, ToolContext, ToolDefinition } from "../engine/api.js";
import type { TaskJob, ToolsOptions } from "./api.js";
import { optNumber, ToolInputError } from "./common.js";
import { outputDir } from "./output.js";
import { killGroup, startChild } from "./process.js";

export interface Job {
  id: string;
  command: string;
  pid: number | undefined;
  /** the process; undefined for a task job */
  child?: ChildProcess;
  /** a task job (no process): the output its owner wrote so far, and how job_kill stops it */
  task?: { text: string; cancel(): void };
  logPath: string;
  startedAt: number;
  status: "running" | "exited" | "killed";
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  done: Promise<void>;
  /** bytes of the log already handed to the model */
  readOffset: number;
  decoder: StringDecoder;
}

interface JobTable {
  next: number;
  jobs: Map<string, Job>;
}

const KEY = "tools.jobs";
/** every live job in this process, killed when the process exits so none is orphaned */
const live = new Set<Job>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const j of live) {
      if (j.pid !== undefined) {
        try {
          process.kill(-j.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  });
}

/**
 * Wait for `p`, at most `ms`. The timer is a ref'd one on purpose: a job's child and pipes are unref'd (a
 * job never keeps the process alive), so while something waits for a job to end, this timer is what keeps
 * the event loop running; with an unref'd one node could find nothing pending and exit 0 mid-turn.
 */
function boundedWait(p: Promise<unknown>, ms: number): Promise<void> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([p.then(() => undefined), new Promise<void>((r) => (t = setTimeout(r, ms)))]).finally(() => clearTimeout(t));
}

/** Each session's job table by session id, and each session's parent, so killJobsOf reaches sub-agents' jobs. */
const tables = new Map<string, JobTable>();
const parents = new Map<string, string>();

/** The session's job table; with `session` it is also found by id (killJobsOf, runningJobsOf). */
export function jobTable(ctx: Pick<ToolContext, "state"> & { session?: Pick<SessionInfo, "id" | "parentId"> }): JobTable {
  let t = ctx.state.get(KEY) as JobTable | undefined;
  if (!t) {
    t = { next: 1, jobs: new Map() };
    ctx.state.set(KEY, t);
  }
  if (ctx.session) {
    tables.set(ctx.session.id, t);
    if (ctx.session.parentId !== undefined) parents.set(ctx.session.id, ctx.session.parentId);
  }
  return t;
}

/** The session and every session below it (its sub-agents, theirs ...) that has a job table. */
function sessionTree(rootId: string): string[] {
  const under = (id: string): boolean => {
    for (let p: string | undefined = id, i = 0; p !== undefined && i < 64; p = parents.get(p), i++) if (p === rootId) return true;
    return false;
  };
  return [...tables.keys()].filter(under);
}

/** The running jobs of a session and of its sub-agents. */
export function runningJobsOf(sessionId: string): Job[] {
  return sessionTree(sessionId).flatMap((id) => [...tables.get(id)!.jobs.values()].filter((j) => j.status === "running"));
}

/**
 * Kill every running job of a session and of its sub-agents (process groups, task jobs cancelled): a run
 * with a wall clock ends its jobs with it. Waits up to `waitMs` for them to be gone; resolves to how many.
 */
export async function killJobsOf(sessionId: string, waitMs = 3000): Promise<number> {
  const jobs = runningJobsOf(sessionId);
  for (const j of jobs) {
    j.status = "killed";
    stop(j);
  }
  await boundedWait(Promise.all(jobs.map((j) => j.done)), waitMs);
  return jobs.length;
}

/** The session closed: forget its table unless a job of it still runs (killJobsOf must still reach it). */
export function forgetJobsOf(sessionId: string): void {
  const t = tables.get(sessionId);
  if (t && [...t.jobs.values()].some((j) => j.status === "running")) return;
  tables.delete(sessionId);
}

/** Kill every job of one session (its state bag). */
export async function killSessionJobs(ctx: Pick<ToolContext, "state">): Promise<void> {
  const jobs = [...jobTable(ctx).jobs.values()].filter((j) => j.status === "running");
  for (const j of jobs) {
    j.status = "killed";
    stop(j);
  }
  await boundedWait(Promise.all(jobs.map((j) => j.done)), 3000);
}

function stop(job: Job): void {
  if (job.child) killGroup(job.child);
  else job.task?.cancel();
}

/** A background job that is no process, in the session's job table (see TaskJob in api.ts). */
export function startTaskJob(state: Map<string, unknown>, opts: { command: string; cancel(): void; session?: Pick<SessionInfo, "id" | "parentId"> }): TaskJob {
  const table = jobTable({ state, ...(opts.session ? { session: opts.session } : {}) });
  const id = `job_${table.next++}`;
  let settle: () => void = () => undefined;
  const job: Job = {
    id,
    command: opts.command,
    pid: undefined,
    task: { text: "", cancel: opts.cancel },
    logPath: "",
    startedAt: Date.now(),
    status: "running",
    readOffset: 0,
    decoder: new StringDecoder("utf8"),
    done: new Promise<void>((r) => (settle = r)),
  };
  table.jobs.set(id, job);
  return {
    id,
    get cancelled() {
      return job.status === "killed";
    },
    write(text) {
      if (job.status === "running") job.task!.text += text;
    },
    end(code) {
      if (job.exit) return;
      if (code === "killed") job.status = "killed";
      job.exit = { code: code === "killed" ? 130 : code, signal: null };
      if (job.status === "running") job.status = "exited";
      settle();
    },
  };
}

export function startJob(spec: SpawnSpec, command: string, ctx: ToolContext, opts: ToolsOptions): Job {
  const table = jobTable(ctx);
  const id = `job_${table.next++}`;
  const logPath = path.join(outputDir(opts.dataDir, ctx.session.id), `${id}.log`);
  fs.mkdirSync(path.dirname(logPath), { recursive: true });
  const fd = fs.openSync(logPath, "w");
  const { child, done } = startChild(spec, (s) => {
    if (s) fs.writeSync(fd, s);
  });
  // a job must not keep the process alive: when the host is done it exits, and the exit hook kills the job
  child.unref();
  for (const s of [child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
  const job: Job = {
    id,
    command,
    pid: child.pid,
    child,
    logPath,
    startedAt: Date.now(),
    status: "running",
    readOffset: 0,
    decoder: new StringDecoder("utf8"),
    done: Promise.resolve(),
  };
  job.done = done.then((exit) => {
    fs.closeSync(fd);
    job.exit = exit;
    if (job.status === "running") job.status = "exited";
    live.delete(job);
  });
  table.jobs.set(id, job);
  live.add(job);
  installExitHook();
  return job;
}

function exitText(job: Job): string {
  const e = job.exit;
  if (!e) return "";
  if (e.code !== null) return `exit code: ${e.code}`;
  const num = e.signal ? os.constants.signals[e.signal] : undefined;
  return `exit code: ${num !== undefined ? 128 + num : "unknown"} (signal ${e.signal ?? "?"})`;
}

export function statusLine(job: Job): string {
  if (job.status === "running") return `status: running (${job.task ? "task" : `pid ${job.pid ?? "?"}`}, ${Math.round((Date.now() - job.startedAt) / 1000)}s)`;
  return `status: ${job.status}${job.exit ? `, ${exitText(job)}` : ""}`;
}

/** New output since the last read (decoded without splitting a UTF-8 character). */
export function readNew(job: Job): string {
  if (job.task) {
    const text = job.task.text.slice(job.readOffset);
    job.readOffset = job.task.text.length;
    return text;
  }
  let size: number;
  try {
    size = fs.statSync(job.logPath).size;
  } catch {
    return "";
  }
  if (size <= job.readOffset) return "";
  const buf = Buffer.alloc(size - job.readOffset);
  const fd = fs.openSync(job.logPath, "r");
  try {
    fs.readSync(fd, buf, 0, buf.length, job.readOffset);
  } finally {
    fs.closeSync(fd);
  }
  job.readOffset = size;
  return job.decoder.write(buf);
}

function jobId(input: Record<string, unknown>, tool: string, ctx: ToolContext): Job {
  const raw = input.job_id ?? input.bash_id ?? input.shell_id;
  const table = jobTable(ctx);
  const known = [...table.jobs.keys()];
  if (typeof raw !== "string" || raw === "") {
    throw ToolInputError({ message: `${tool}: 'job_id' is required (${known.length ? `jobs: ${known.join(", ")}` : "no background jobs in this session"})` });
  }
  const job = table.jobs.get(raw);
  if (!job) throw ToolInputError({ message: `${tool}: no job '${raw}' in this session (${known.length ? `jobs: ${known.join(", ")}` : "none started"})` });
  return job;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

export function jobOutputTool(): ToolDefinition {
  return {
    name: "job_output",
    kind: "read",
    claudeName: "BashOutput",
    description:
      "Read a background job's new output since the last read, and its status (running, exited with its exit code, or killed). wait_ms waits up to that long for output or exit first.",
    inputSchema: {
      type: "object",
      properties: {
        job_id: { type: "string", description: "the id bash or agent returned, e.g. job_1" },
        wait_ms: { type: "integer", minimum: 0, maximum: 600000, description: "wait up to this long for new output or the job's end (default 0)" },
      },
      required: ["job_id"],
      additionalProperties: false,
    },
    toClaudeInput: (input) => ({ bash_id: input.job_id }),
    fromClaudeInput: (input) => ({ job_id: input.bash_id ?? input.job_id, ...(input.wait_ms !== undefined ? { wait_ms: input.wait_ms } : {}) }),
    ruleSubject: (input) => String(input.job_id ?? ""),
    async run(input, ctx) {
      const job = jobId(input, "job_output", ctx);
      const wait = Math.min(optNumber("job_output", input, "wait_ms", 0) ?? 0, 600_000);
      const until = Date.now() + wait;
      let text = readNew(job);
      while (text === "" && job.status === "running" && Date.now() < until && !ctx.signal.aborted) {
        await sleep(Math.min(100, until - Date.now()), ctx.signal);
        text = readNew(job);
      }
      if (job.status !== "running") text += readNew(job);
      return {
        content: `${job.id} ${statusLine(job)}\n${text === "" ? "(no new output)" : text}`,
        metadata: { job_id: job.id, status: job.status, exit_code: job.exit?.code ?? null, log: job.logPath },
      };
    },
  };
}

export function jobKillTool(): ToolDefinition {
  return {
    name: "job_kill",
    kind: "execute",
    claudeName: "KillShell",
    description: "Stop a background job and every process it started (its process group).",
    inputSchema: {
      type: "object",
      properties: { job_id: { type: "string", description: "the id bash or agent returned, e.g. job_1" } },
      required: ["job_id"],
      additionalProperties: false,
    },
    toClaudeInput: (input) => ({ shell_id: input.job_id }),
    fromClaudeInput: (input) => ({ job_id: input.shell_id ?? input.job_id }),
    ruleSubject: (input) => String(input.job_id ?? ""),
    async run(input, ctx) {
      const job = jobId(input, "job_kill", ctx);
      if (job.status !== "running") return { content: `${job.id} already ended (${statusLine(job)})`, metadata: { job_id: job.id, status: job.status } };
      job.status = "killed";
      stop(job);
      await boundedWait(job.done, 3000);
      return { content: `${job.id} killed (${statusLine(job)})`, metadata: { job_id: job.id, status: job.status } };
    },
  };
}
