/**
 * SIGTERM, SIGHUP and SIGINT on `oceancode run` while the bash tool runs: every process the tool started is
 * gone when the run exits (the process table read from /proc: a child that ignores SIGTERM included, so the
 * SIGKILL after the grace is proven), the turn is stored as interrupted (transcript marker, index, the
 * database's note row: not "crashed", also after the session is reopened) and the exit code is 128 + the
 * signal's number. The compiled CLI on the scripted model; the three runs go side by side.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../kit/cli.js";
import { readIndex, readTurn } from "../kit/stored.js";
import { pidsWithMarker, startRun, storedRows, waitFor } from "./helpers.js";

const NOTE = "[interrupted by the user: the turn stopped here, before it finished]";
const CASES = [
  { sig: "SIGTERM", code: 143 },
  { sig: "SIGHUP", code: 129 },
  { sig: "SIGINT", code: 130 },
] as const;

interface Outcome {
  sb: Sandbox;
  marker: string;
  code: number | null;
  stderr: string;
  sessionId: string;
  lastEvent: unknown;
  leftBehind: number[];
  seenBefore: number;
  toolResult?: string;
}

const outcomes = new Map<string, Outcome>();

async function signalDuringBash(sig: NodeJS.Signals): Promise<Outcome> {
  const sb = makeSandbox(`oc-sig-${sig}-`);
  const marker = `ocmark-${sig}-${process.pid}-${Date.now()}`;
  // a stubborn child (ignores SIGTERM: only the SIGKILL after the grace ends it) and a plain one, both with the marker in argv[0]
  const command = `(trap '' TERM; exec -a ${marker}-stubborn sleep 300) & (exec -a ${marker}-plain sleep 300) & wait`;
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
  sb.write("s.json", JSON.stringify({ steps: [{ tool_calls: [{ name: "bash", input: { command } }] }, { text: "never reached" }] }));
  const run = startRun(sb, ["--model", "scripted/s.json", "start the server"]);
  // the tool's processes run (both sleeps and the shell)
  const seen = await waitFor(`the bash tool's processes (${sig})`, () => {
    const n = pidsWithMarker(marker).length;
    return n >= 3 ? n : false;
  });
  run.child.kill(sig);
  const { code } = await run.exited;
  const leftBehind = pidsWithMarker(marker); // read at once: nothing may outlive the run
  const events = run.events();
  const end = events.find((e) => e.type === "tool_call_end") as { result?: { content: string } } | undefined;
  return { sb, marker, code, stderr: run.stderr(), sessionId: events[0]!.sessionId!, lastEvent: events.at(-1), leftBehind, seenBefore: seen, toolResult: end?.result?.content };
}

beforeAll(async () => {
  const all = await Promise.all(CASES.map((c) => signalDuringBash(c.sig)));
  CASES.forEach((c, i) => outcomes.set(c.sig, all[i]!));
}, 90_000);

afterAll(() => {
  for (const o of outcomes.values()) {
    for (const pid of pidsWithMarker(o.marker)) process.kill(pid, "SIGKILL"); // only if a test failed
    o.sb.cleanup();
  }
});

describe("a signal on run stops the turn, its processes and the run", () => {
  for (const c of CASES) {
    it(`${c.sig}: exit ${c.code}, no process of the tool left, the turn stored as interrupted`, () => {
      const o = outcomes.get(c.sig)!;
      expect(o.seenBefore).toBeGreaterThanOrEqual(3);
      expect(o.leftBehind, `processes left behind after ${c.sig}`).toEqual([]);
      expect(o.code, o.stderr).toBe(c.code);
      expect(o.stderr).toContain(c.sig === "SIGINT" ? "interrupted" : c.sig);
      expect(o.stderr).toContain(`session: ${o.sessionId}`);
      expect(o.lastEvent).toMatchObject({ type: "turn_end", reason: "aborted" });
      expect(o.toolResult).toContain("Command aborted; its process group was killed.");

      // the ledger: the transcript carries the tool call, its result and the marker; the index says interrupted
      const turn = readTurn(o.sb, o.sessionId, 1);
      expect(turn).toContain("start the server");
      expect(turn).toContain("Command aborted; its process group was killed.");
      expect(turn).toContain("· interrupted");
      expect(turn).toContain(NOTE);
      expect(readIndex(o.sb, o.sessionId).json[0]).toMatchObject({ turn: 1, reason: "aborted", interrupted: "user" });

      // the database: the tool's result and the interrupted note are rows of the session
      const rows = storedRows(o.sb, o.sessionId);
      expect(rows.some((r) => r.role === "tool_result" || JSON.stringify(r.row).includes("Command aborted"))).toBe(true);
      const note = rows.find((r) => r.role === "note");
      expect(note?.row).toMatchObject({ kind: "interrupted", text: NOTE });
    });
  }

  it("the next run -c reads the turn as interrupted, never as crashed", async () => {
    const o = outcomes.get("SIGTERM")!;
    const next = await runCliAsync(["run", "--continue", "go on"], { cwd: o.sb.project, env: o.sb.env });
    expect(next.code, next.stderr).toBe(0);
    const index = readIndex(o.sb, o.sessionId).json;
    expect(index[0]).toMatchObject({ turn: 1, reason: "aborted", interrupted: "user" });
    expect(index[0]!.interrupted).not.toBe("crash");
    expect(index[1]).toMatchObject({ turn: 2 });
  });
});
