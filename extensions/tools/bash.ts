/**
 * `bash {command, timeout?, description?, run_in_background?, workdir?}`: runs `bash -c <command>` composed
 * through ctx.prepareSpawn (env stripping, sandbox), in its own process group so a timeout or an abort kills
 * everything it started. Output is stdout and stderr interleaved in arrival order, then "exit code: N".
 * metadata.stdout / metadata.stderr keep the two streams apart (each capped like the output), as Claude
 * Code's Bash reports them to hooks (tool_response).
 */
import fs from "node:fs";
import os from "node:os";
import type { ToolDefinition, ToolOutput } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { MAX_BASH_TIMEOUT_MS } from "./api.js";
import { reqString, optString, optNumber, toolPath, ToolInputError } from "./common.js";
import { startJob } from "./jobs.js";
import { OutputCollector, fullOutputPath } from "./output.js";
import { killGroup, startChild, type StreamName } from "./process.js";

/** One stream's text, at most `max` chars kept: a head and a rolling tail around a cut marker. */
class StreamText {
  private head = "";
  private tail = "";
  private total = 0;
  constructor(private readonly max: number) {}
  push(s: string): void {
    this.total += s.length;
    const half = Math.floor(this.max / 2);
    if (this.head.length < half) {
      const take = s.slice(0, half - this.head.length);
      this.head += take;
      s = s.slice(take.length);
    }
    if (s) this.tail = (this.tail + s).slice(-(this.max - half));
  }
  text(): string {
    const omitted = this.total - this.head.length - this.tail.length;
    return omitted > 0 ? `${this.head}\n[${omitted} chars cut]\n${this.tail}` : this.head + this.tail;
  }
}

function exitLine(code: number | null, signal: NodeJS.Signals | null): string {
  if (code !== null) return `exit code: ${code}`;
  const num = signal ? os.constants.signals[signal] : undefined;
  return `exit code: ${num !== undefined ? 128 + num : "unknown"} (killed by ${signal ?? "a signal"})`;
}

export function bashTool(opts: ToolsOptions): ToolDefinition {
  return {
    name: "bash",
    kind: "execute",
    claudeName: "Bash",
    description: [
      "Run a shell command with bash -c in the working directory (or workdir). Output is stdout and stderr interleaved, followed by the exit code.",
      `timeout is in milliseconds (default ${opts.bashTimeoutMs}, at most ${MAX_BASH_TIMEOUT_MS}); on timeout the whole process group is killed.`,
      "run_in_background: true starts a job and returns its id at once; read it with job_output and stop it with job_kill (use this for servers and watchers).",
      "Commands no person approved run in a sandbox: the project is writable (not .git or agent settings), the rest read-only, secrets hidden, a private /tmp, no network unless allowed; dangerouslyDisableSandbox: true asks a person for an unconfined run.",
    ].join(" "),
    inputSchema: {
      type: "object",
      properties: {
        command: { type: "string", description: "the command line" },
        timeout: { type: "integer", minimum: 1, maximum: MAX_BASH_TIMEOUT_MS, description: "milliseconds before the command is killed" },
        description: { type: "string", description: "what the command does, in a few words" },
        run_in_background: { type: "boolean", description: "start as a background job" },
        background: { type: "boolean", description: "same as run_in_background" },
        workdir: { type: "string", description: "directory to run in (default: the working directory)" },
        dangerouslyDisableSandbox: {
          type: "boolean",
          description: "run outside the sandbox (only when the sandboxed run failed for lack of access it needs): a person must approve it; unattended runs refuse it",
        },
      },
      required: ["command"],
      additionalProperties: false,
    },
    toClaudeInput: (input) => {
      const out: Record<string, unknown> = { command: input.command };
      for (const k of ["description", "timeout", "run_in_background", "dangerouslyDisableSandbox"]) if (input[k] !== undefined) out[k] = input[k];
      return out;
    },
    fromClaudeInput: (input) => ({ ...input }),
    ruleSubject: (input) => String(input.command ?? ""),
    async run(input, ctx): Promise<ToolOutput> {
      const command = reqString("bash", input, "command", "the command line to run");
      const timeout = Math.min(optNumber("bash", input, "timeout", 1) ?? opts.bashTimeoutMs, MAX_BASH_TIMEOUT_MS);
      const background = input.run_in_background === true || input.background === true;
      const workdir = optString("bash", input, "workdir");
      const cwd = workdir ? toolPath(opts, ctx, workdir) : ctx.cwd;
      if (!fs.existsSync(cwd) || !fs.statSync(cwd).isDirectory()) throw ToolInputError({ message: `bash: workdir ${cwd} is not a directory` });
      const spec = await ctx.prepareSpawn({ command: "bash", args: ["-c", command], cwd, purpose: "bash" });

      if (background) {
        const job = startJob(spec, command, ctx, opts);
        return {
          content: `Started background job ${job.id} (pid ${job.pid ?? "?"}). Read its output with job_output {"job_id": "${job.id}"}; stop it with job_kill {"job_id": "${job.id}"}.`,
          metadata: { job_id: job.id, pid: job.pid ?? null },
        };
      }

      if (ctx.signal.aborted) return { content: "bash: aborted before the command started", isError: true };
      const collector = new OutputCollector(fullOutputPath(opts.dataDir, ctx.session.id, ctx.call.id), opts.maxOutputChars, opts.maxOutputBytes);
      let last = "";
      const streams: Record<StreamName, StreamText> = { stdout: new StreamText(opts.maxOutputChars), stderr: new StreamText(opts.maxOutputChars) };
      const { child, done } = startChild(spec, (s, stream) => {
        if (s) last = s;
        collector.push(s);
        streams[stream].push(s);
      });
      let timedOut = false;
      let aborted = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child);
      }, timeout);
      const onAbort = (): void => {
        aborted = true;
        killGroup(child);
      };
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      const exit = await done.finally(() => {
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", onAbort);
      });
      const sep = last === "" || last.endsWith("\n") ? "" : "\n";
      const killedNote = timedOut ? `Command timed out after ${timeout} ms; its process group was killed.\n` : aborted ? "Command aborted; its process group was killed.\n" : "";
      collector.push(`${sep}${killedNote}`);
      streams.stderr.push(killedNote);
      const { content, truncated } = collector.finish();
      const body = content.trim() === "" ? "(no output)\n" : content;
      return {
        content: `${body}${exitLine(exit.code, exit.signal)}`,
        isError: timedOut || aborted || exit.code !== 0,
        metadata: {
          exit_code: exit.code,
          pid: child.pid ?? null,
          timed_out: timedOut,
          aborted,
          stdout: streams.stdout.text(),
          stderr: streams.stderr.text(),
          ...(truncated ? { truncated } : {}),
        },
      };
    },
  };
}
