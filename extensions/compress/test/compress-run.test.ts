/**
 * compress through a real kernel (compiled extensions, SQLite storage, real bash) against the fake
 * Anthropic server: what the model reads of two bash results (one under the tools' limit, one spilled
 * past it), the verbatim copy on disk, and the gauge — with compress on it equals the gauge of the same
 * session with compress off (the removed bytes ÷ 4 added back).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import type { SessionEvent } from "../../engine/api.js";
import type { CompressService } from "../api.js";
import { bootCompiled } from "../../../test/kit/kernel-boot.js";

const MODEL = "anthropic/claude-sonnet-4-6";
// colours, a progress line, 300 similar lines with one error among them, 50 identical lines
const SMALL = [
  "for i in $(seq 1 150); do printf '\\033[32mok\\033[0m   step %d passed\\n' $i; done",
  "echo 'error: the build broke at step 151'",
  "for i in $(seq 152 300); do printf '\\033[32mok\\033[0m   step %d passed\\n' $i; done",
  "printf 'downloading 10%%\\rdownloading 50%%\\rdownloading 100%%\\n'",
  "for i in $(seq 1 50); do echo 'waiting for the lock on the package cache'; done",
].join("; ");
// past tools.max_output_chars (30000): the tools extension spills it and truncates
const BIG = "for i in $(seq 1 3000); do echo \"   Compiling crate_$i v0.1.$i (registry)\"; done; echo 'Finished dev profile in 12.3s'";
const CALLS = [
  { id: "c_small", name: "bash", input: { command: SMALL } },
  { id: "c_big", name: "bash", input: { command: BIG } },
];

type Block = { type: string; tool_use_id?: string; content?: unknown; text?: string };
const resultText = (req: AnthropicRecorded, id: string): string => {
  const b = (req.body.messages ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Block[]))).find((x) => x.type === "tool_result" && x.tool_use_id === id);
  if (!b) return "";
  return typeof b.content === "string" ? b.content : ((b.content as Block[] | undefined) ?? []).map((c) => c.text ?? "").join("");
};

interface Sitting {
  sb: Sandbox;
  fake: FakeAnthropicServer;
  gauges: number[];
  compress: CompressService;
  sessionId: string;
  dataDir: string;
}

/** One session of two bash steps and a closing answer, in a kernel with `compress` set as given. */
async function sitting(compress: boolean): Promise<Sitting> {
  const fake = await startFakeAnthropic();
  let i = 0;
  fake.respond(() => {
    const c = CALLS[i++];
    return c ? { text: `step ${i}`, toolCalls: [c] } : { text: "done" };
  });
  const sb = makeSandbox("oc-compress-");
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
  const cfg = sb.write("global.json", JSON.stringify({ compress }), "home");
  const kernel = await bootCompiled<Kernel>(sb, anthropicEnv(sb, fake.url, { OC_CONFIG: cfg }));
  kernels.push(kernel);
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const gauges: number[] = [];
  engine.subscribe((e: SessionEvent) => void (e.type === "step_end" && gauges.push(e.gaugeTokens)));
  const s = await engine.createSession({ cwd: sb.project, model: MODEL });
  const r = await engine.prompt(s, "build it");
  expect(r.reason).toBe("end_turn");
  return { sb, fake, gauges, compress: await kernel.service("compress"), sessionId: s.info.id, dataDir: path.join(sb.home, ".local", "share", "oceancode") };
}

interface Kernel {
  activate(e: string): Promise<void>;
  service<T>(name: string): Promise<T>;
  shutdown(): Promise<void>;
}
const kernels: Kernel[] = [];
let on: Sitting;
let off: Sitting;

beforeAll(async () => {
  [on, off] = await Promise.all([sitting(true), sitting(false)]);
}, 120_000);

afterAll(async () => {
  for (const k of kernels) await k.shutdown().catch(() => undefined);
  for (const s of [on, off]) {
    await s?.fake.close();
    s?.sb.cleanup();
  }
});

const pathIn = (text: string): string => /the verbatim output \(\d+ bytes\) is at (\S+)\]/.exec(text)?.[1] ?? "";

describe("compress on a session", () => {
  it("the model reads the small output compressed, with errors kept and where the verbatim copy is", () => {
    const text = resultText(on.fake.requests[1]!, "c_small");
    expect(text).not.toMatch(/[\x1b\r]/);
    expect(text.split("\n")[0]).toMatch(/^\[compress: escape codes and progress frames stripped, \d+ repeated lines? folded, \d+ similar lines left out; the verbatim output \(\d+ bytes\) is at \S+\]$/);
    expect(text).toContain("error: the build broke at step 151");
    expect(text).toContain("waiting for the lock on the package cache\n[compress: the line above repeats 49 more times]");
    expect(text).toMatch(/\[compress: \d+ similar lines left out here \(lines \d+-\d+ of the verbatim output\)\]/);
    expect(text).toContain("downloading 100%");
    expect(text).not.toContain("downloading 10%");
    expect(text.trimEnd().endsWith("exit code: 0")).toBe(true);
    // without compress the model read all of it, colours included
    const plain = resultText(off.fake.requests[1]!, "c_small");
    expect(plain).toContain("\x1b[32mok");
    expect(text.length).toBeLessThan(plain.length / 4);
  });

  it("the verbatim copy on disk is the output as the tool returned it", () => {
    const file = pathIn(resultText(on.fake.requests[1]!, "c_small"));
    expect(file.startsWith(path.join(on.sb.home))).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe(resultText(off.fake.requests[1]!, "c_small"));
  });

  it("a spilled output is compressed whole from its spill file, not only its head and tail", () => {
    const text = resultText(on.fake.requests[2]!, "c_big");
    const plain = resultText(off.fake.requests[2]!, "c_big");
    expect(plain).toMatch(/\[truncated \d+ bytes; full output kept at /);
    expect(text).not.toContain("[truncated");
    expect(text).toContain("Compiling crate_1 v0.1.1 (registry)");
    expect(text).toContain("Compiling crate_3000 v0.1.3000 (registry)\nFinished dev profile in 12.3s\nexit code: 0");
    expect(text).toMatch(/\[compress: 2984 similar lines left out here \(lines 9-2992 of the verbatim output\)\]/);
    const file = pathIn(text);
    expect(fs.readFileSync(file, "utf8").split("\n")[2991]).toBe("   Compiling crate_2992 v0.1.2992 (registry)");
    expect(text.length).toBeLessThan(2_000);
  });

  it("the gauge still measures the uncompressed window: the same as with compress off", () => {
    expect(on.gauges).toHaveLength(3);
    expect(off.gauges).toHaveLength(3);
    // the fake counts a request's tokens from its JSON (characters ÷ 4): with compress on it counts the
    // compressed window and the gauge adds the removed bytes back. What is left is the fake counting JSON
    // escapes (\u001b is 6 characters, \n 2) of the results in the request, which compress mostly removes.
    const escapes = (t: string) => JSON.stringify(t).length - 2 - t.length;
    const ids = ["c_small", "c_big"];
    for (let i = 0; i < 3; i++) {
      const inRequest = ids.slice(0, i); // request i+1 carries the results of the steps before it
      const expected = inRequest.reduce((n, id) => n + (escapes(resultText(off.fake.requests[i]!, id)) - escapes(resultText(on.fake.requests[i]!, id))) / 4, 0);
      expect(Math.abs(off.gauges[i]! - on.gauges[i]! - expected), `step ${i + 1}: on ${on.gauges[i]}, off ${off.gauges[i]}, escapes ${expected}`).toBeLessThanOrEqual(50);
    }
    // and the requests themselves were smaller
    const sent = (s: Sitting) => JSON.stringify(s.fake.requests[2]!.body.messages).length;
    expect(sent(on)).toBeLessThan(sent(off) / 2);
    const t = on.compress.totals(on.sessionId);
    expect(t.results).toBe(2);
    expect(t.savedTokens).toBeGreaterThan(5_000);
    expect(off.compress.totals(off.sessionId).results).toBe(0);
    expect(off.compress.settings().enabled).toBe(false);
  });
});
