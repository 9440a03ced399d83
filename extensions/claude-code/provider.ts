/**
 * The Claude Code route (claude-code/<model>): each request runs the installed claude CLI once
 * (`claude -p --output-format stream-json --input-format stream-json --verbose --include-partial-messages`),
 * resuming the session's claude conversation with --resume, and maps its output to provider events.
 * Claude Code runs its own tools: they arrive as tool_performed and the engine never runs them.
 */
import { spawn } from "node:child_process";
import readline from "node:readline";
import { type ModelInfo, type ModelRequest, type Provider, type ProviderEvent, type SpawnSpec } from "../engine/api.js";
import { ProviderError, printableText } from "../engine/kit.js";
import { claudeEnv } from "./child-env.js";
import { INSTALL_HINT } from "./locate.js";
import { claudeHasSession, claudeSessionId, coldPrompt, firstSeqOf, newRows, prefaceOf, resumePrompt } from "./prompt.js";
import { ClaudeStreamMapper } from "./stream.js";
import { claudeCodeModels, DEFAULT_MODEL_NAME } from "./models.js";
import type { Mirror } from "./settings.js";
import type { RouteStates } from "./state.js";

export const PROVIDER_ID = "claude-code";
/** the key of ModelRequest.extra this extension's modelRequest tap fills */
export const EXTRA_KEY = "claude-code";
export interface RequestExtra {
  cwd: string;
  /** the tideline's line for this session and model, in tokens (undefined: the ledger is off) */
  line?: number;
}

export interface ClaudeCodeOptions {
  /** the claude binary, or undefined when it is not installed */
  bin(): string | undefined;
  /** oceancode's environment (the source of the few variables claude reads) */
  env: NodeJS.ProcessEnv;
  /** claude's config dir (CLAUDE_CONFIG_DIR, else ~/.claude): where its transcripts live */
  configDir(): string;
  /** compose the child through the childProcess hook (child-env, sandbox) */
  compose(spec: SpawnSpec, sessionId: string): Promise<SpawnSpec>;
  /** the Claude Code settings mirror now */
  mirror(): Mirror;
  /** the session's ledger page (SESSION.md), for a cold start */
  page(sessionId: string): string | undefined;
  /** provider.claude-code.permission_mode, when set */
  permissionMode(): string | undefined;
  /** a cold start happened (for a notice) */
  coldStart?(sessionId: string, why: string): void;
  /** the project, when a request carries no cwd */
  project: string;
  /** which claude conversation each session is on */
  states: RouteStates;
}

/** The model claude is told to use: the name, or for claude-code/mirror the mirrored model (none: claude's own choice). */
export function claudeModelFor(name: string, mirror: Mirror): string | undefined {
  if (name !== DEFAULT_MODEL_NAME) return name;
  return mirror.model;
}

/**
 * Which claude conversation a request goes to, and what it sends. A new conversation (cold start) when
 * the tideline cut the window past where the current one began, or when Claude Code's last reported
 * context reached the line; else the current one, resumed when claude holds it.
 */
function planConversation(req: ModelRequest, extra: RequestExtra | undefined, opts: ClaudeCodeOptions): { id: string; resume: boolean; prompt: string; startSeq: number } {
  const sid = req.sessionId;
  const st = opts.states.get(sid);
  const cutPast = st !== undefined && prefaceOf(req.rows) !== undefined && firstSeqOf(req.rows) > st.startSeq;
  const full = st !== undefined && extra?.line !== undefined && st.context >= extra.line;
  if (st && !cutPast && !full) {
    const id = claudeSessionId(sid, st.startSeq);
    if (claudeHasSession(opts.configDir(), id)) return { id, resume: true, prompt: resumePrompt(req), startSeq: st.startSeq };
  }
  if (!st) {
    // first request of this session on the route (or state lost): the window's start names the conversation
    const startSeq = firstSeqOf(req.rows);
    const id = claudeSessionId(sid, startSeq);
    if (claudeHasSession(opts.configDir(), id)) return { id, resume: true, prompt: resumePrompt(req), startSeq };
    return { id, resume: false, prompt: coldPrompt(req, undefined, extra?.line), startSeq };
  }
  // cold start: a fresh conversation from the ledger page and the retained turns' text
  const startSeq = newRows(req.rows)[0]?.seq ?? firstSeqOf(req.rows);
  if (cutPast || full) opts.coldStart?.(sid, `Claude Code's context reached the tideline${full ? ` (${st.context} tokens ≥ ${extra!.line})` : ""}: claude starts afresh from the ledger page and the retained turns`);
  return { id: claudeSessionId(sid, startSeq), resume: false, prompt: coldPrompt(req, opts.page(sid), extra?.line), startSeq };
}

export function createClaudeCodeProvider(opts: ClaudeCodeOptions): Provider {
  const notInstalled = () => new ProviderError("auth", INSTALL_HINT);
  return {
    id: PROVIDER_ID,
    models: claudeCodeModels,
    // claude takes any model name it knows: an unlisted one runs with the default entry's figures
    describe: (name: string): Omit<ModelInfo, "known"> => claudeCodeModels().find((m) => m.name === name) ?? { ...claudeCodeModels()[0]!, id: `${PROVIDER_ID}/${name}`, name },
    ready: () => (opts.bin() ? undefined : notInstalled()),
    async *stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const bin = opts.bin();
      if (!bin) throw notInstalled();
      if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
      const extra = req.extra[EXTRA_KEY] as RequestExtra | undefined;
      const plan = planConversation(req, extra, opts);
      const { id, resume } = plan;
      let prompt = plan.prompt;
      if (!prompt.trim()) prompt = "Continue.";
      const mirror = opts.mirror();
      const model = claudeModelFor(req.model.name, mirror);
      const effort = mirror.effortFor(model);
      const mode = opts.permissionMode();
      const args = [
        "-p",
        "--output-format", "stream-json",
        "--input-format", "stream-json",
        "--verbose",
        "--include-partial-messages",
        ...(resume ? ["--resume", id] : ["--session-id", id]),
        ...(model ? ["--model", model] : []),
        ...(effort ? ["--effort", effort] : []),
        ...(mode ? ["--permission-mode", mode] : []),
      ];
      const spec = await opts.compose({ command: bin, args, cwd: extra?.cwd ?? opts.project, env: { ...opts.env }, purpose: "provider:claude-code" }, req.sessionId);
      const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: claudeEnv(spec.env, opts.env), stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (d: string) => {
        if (stderr.length < 4000) stderr += d;
      });
      const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
        child.once("error", (error) => resolve({ code: null, error }));
        child.once("close", (code) => resolve({ code }));
      });
      const kill = () => child.kill("SIGTERM");
      signal.addEventListener("abort", kill, { once: true });
      child.stdin.on("error", () => undefined); // a child that died early: its exit says why
      child.stdin.end(`${JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: prompt }] } })}\n`);
      const mapper = new ClaudeStreamMapper();
      try {
        const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
        for await (const line of lines) {
          if (signal.aborted) break;
          if (!line.trim()) continue;
          let parsed: unknown;
          try {
            parsed = JSON.parse(line);
          } catch {
            continue; // a stray non-JSON line (a warning) is not part of the protocol
          }
          if (typeof parsed === "object" && parsed !== null) for (const ev of mapper.push(parsed as Record<string, unknown>)) yield ev;
        }
        const end = await exited;
        if (signal.aborted) throw new ProviderError("aborted", "the request was cancelled");
        if (end.error) throw new ProviderError("network", `cannot run claude (${bin}): ${end.error.message}`);
        if (!mapper.hasResult) {
          throw new ProviderError(end.code === 0 ? "server" : "bad_request", `claude exited (${end.code ?? "signal"}) without a result: ${printableText(stderr.trim().split("\n").slice(-3).join(" "), 300) || "no output"}`);
        }
        const closing = mapper.finish();
        for (const ev of closing) {
          if (ev.type === "usage") {
            const u = ev.usage;
            opts.states.set(req.sessionId, { startSeq: plan.startSeq, context: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens });
          }
          yield ev;
        }
      } finally {
        signal.removeEventListener("abort", kill);
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      }
    },
  };
}
