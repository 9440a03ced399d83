/**
 * Streams that match what was stored: a request that fails after its text started streaming is retried,
 * and what `oceancode run` showed of the abandoned attempt is marked (text) or taken back (a `discard`
 * event in JSON), so the text a reader keeps is exactly what the session stored and exports. The compiled
 * CLI, the real SDKs, the fake servers dropping the connection (or failing inside the stream) mid-answer.
 */
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../kit/cli.js";
import { exportAtif, exportMd, keptText, parseEvents, storedAnswer, sessionFromStderr as sessionOf } from "../kit/stored.js";
import type { AnthropicReply } from "../kit/fakes/anthropic-server.js";
import type { OpenAIReply } from "../kit/fakes/openai-server.js";
import { providerFakesForFile, sandboxForEach } from "../kit/file-fixtures.js";

const { anthropic, openai } = providerFakesForFile({ chunkChars: 5 });
const sb = sandboxForEach("oc-streams-", (s) => s.write("notes.txt", "the secret word is kelp\n"));

interface Case {
  name: string;
  model: string;
  env: () => NodeJS.ProcessEnv;
  enqueue(...r: Array<{ drop: string } | { streamError: string } | { text: string; read?: boolean; malformed?: boolean }>): void;
  requests: () => number;
  /** what a failure inside the stream is called on this provider (the discard's cause) */
  streamErrorCause: string;
}

/** the read tool call; `malformed`: its argument JSON is cut off mid-way (the provider cannot parse it) */
const readCall = (malformed = false) => ({ name: "read", input: { file_path: "notes.txt" }, ...(malformed ? { rawInput: '{"file_path": "no' } : {}) });

const cases: Case[] = [
  {
    name: "anthropic",
    model: "anthropic/claude-sonnet-4-5",
    env: () => ({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url }),
    enqueue: (...rs) =>
      anthropic.enqueue(
        ...rs.map((r): AnthropicReply =>
          "drop" in r ? { type: "drop", text: r.drop } : "streamError" in r ? { type: "stream_error", text: r.streamError } : { text: r.text, ...(r.read ? { toolCalls: [readCall(r.malformed)] } : {}) },
        ),
      ),
    requests: () => anthropic.requests.length,
    streamErrorCause: "overloaded",
  },
  {
    name: "openai",
    model: "openai/gpt-4.1",
    env: () => ({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: openai.baseURL }),
    enqueue: (...rs) =>
      openai.enqueue(
        ...rs.map((r): OpenAIReply =>
          "drop" in r ? { type: "drop", text: r.drop } : "streamError" in r ? { type: "stream_error", text: r.streamError } : { text: r.text, ...(r.read ? { toolCalls: [readCall(r.malformed)] } : {}) },
        ),
      ),
    requests: () => openai.requests.length,
    streamErrorCause: "overloaded",
  },
];

const run = (c: Case, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCliAsync(["run", "--auto", "--model", c.model, ...args], { cwd: sb.project, env: { ...sb.env, OC_RETRY_BASE_MS: "10", ...c.env(), ...env } });

describe.each(cases)("a stream that breaks mid-answer on $name", (c) => {
  it("text output marks the abandoned text with [retrying: stream dropped]; only the full answer is stored", async () => {
    c.enqueue({ drop: "ABANDONED half of an answer" }, { text: "The whole answer, second try." });
    const r = await run(c, ["hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("ABANDONED half of an answer\n[retrying: stream dropped]\nThe whole answer, second try.\n");
    expect(r.stderr).toMatch(/network: .*retry 1\/4/);
    expect(c.requests()).toBe(2);
    const id = sessionOf(r.stderr);
    const traj = await exportAtif(sb, id);
    expect(storedAnswer(traj)).toBe("The whole answer, second try.");
    const md = await exportMd(sb, id);
    expect(md).toContain("The whole answer, second try.");
    expect(md).not.toContain("ABANDONED");
  });

  it("--format json: a discard event for the partial step; kept deltas equal what is stored and exported", async () => {
    // step 1 reads a file (whole); step 2 drops once, then fails inside the stream once, then answers
    c.enqueue({ text: "Let me read it.", read: true }, { drop: "ABANDONED first try" }, { streamError: "ABANDONED second" }, { text: "It says kelp." });
    const r = await run(c, ["--format", "json", "what is the word?"]);
    expect(r.code, r.stderr).toBe(0);
    const events = parseEvents(r.stdout);
    const discards = events.filter((e) => e.type === "discard");
    const id = events[0]!.sessionId!;
    expect(discards).toEqual([
      { type: "discard", sessionId: id, turn: 1, step: 2, reason: "retry", cause: "network", chars: "ABANDONED first try".length, deltas: 4 },
      { type: "discard", sessionId: id, turn: 1, step: 2, reason: "retry", cause: c.streamErrorCause, chars: "ABANDONED second".length, deltas: 4 },
    ]);
    // each discard comes before its retry notice, so a host can take the text back before anything else shows
    const i = events.indexOf(discards[0]!);
    expect(events[i + 1]).toMatchObject({ type: "notice", level: "warn" });
    expect(c.requests()).toBe(4);
    const kept = keptText(events);
    expect(kept).toBe("Let me read it.It says kelp.");
    expect(events.filter((e) => e.type === "text_delta").map((e) => e.text).join("")).toContain("ABANDONED");
    const traj = await exportAtif(sb, id);
    expect(storedAnswer(traj)).toBe(kept);
    const md = await exportMd(sb, id);
    expect(md).not.toContain("ABANDONED");
    expect(md).toContain("It says kelp.");
  });

  it("a malformed tool call after the text is retried too: the text is discarded (cause server), then the step runs whole", async () => {
    c.enqueue({ text: "ABANDONED reading", read: true, malformed: true }, { text: "Reading it.", read: true }, { text: "It says kelp." });
    const r = await run(c, ["--format", "json", "what is the word?"]);
    expect(r.code, r.stderr).toBe(0);
    const events = parseEvents(r.stdout);
    expect(events.filter((e) => e.type === "discard")).toEqual([expect.objectContaining({ step: 1, reason: "retry", cause: "server", chars: 17, deltas: 4 })]);
    expect(events.filter((e) => e.type === "tool_call_start")).toHaveLength(1);
    const kept = keptText(events);
    expect(kept).toBe("Reading it.It says kelp.");
    expect(storedAnswer(await exportAtif(sb, events[0]!.sessionId!))).toBe(kept);
  });

  it("no retries left: the partial text is discarded for good ([discarded: …], reason error), exit 1, nothing of it stored", async () => {
    c.enqueue({ drop: "ABANDONED never finished" });
    const text = await run(c, ["hi"], { OC_MAX_RETRIES: "0" });
    expect(text.code).toBe(1);
    expect(text.stdout).toBe("ABANDONED never finished\n[discarded: stream dropped]\n");
    expect(text.stderr).toContain("network");
    c.enqueue({ drop: "ABANDONED again" });
    const json = await run(c, ["--format", "json", "hi"], { OC_MAX_RETRIES: "0" });
    expect(json.code).toBe(1);
    const events = parseEvents(json.stdout);
    expect(events.find((e) => e.type === "discard")).toMatchObject({ reason: "error", cause: "network", step: 1, deltas: 3 });
    expect(keptText(events)).toBe("");
    const traj = await exportAtif(sb, events[0]!.sessionId!);
    expect(storedAnswer(traj)).toBe("");
    expect(JSON.stringify(traj)).not.toContain("ABANDONED");
  });
});
