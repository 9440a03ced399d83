/**
 * The structured log through the compiled CLI (throwaway HOMEs, the fake Anthropic server, a user-tier
 * probe extension that logs canary secrets at every level from inside a step):
 *  - obs.log_file at debug: JSON lines with time, level, ext, session, turn, step, msg (engine, hooks and probe lines);
 *  - rotation at obs.log_rotate_bytes keeps obs.log_keep files, every line whole;
 *  - the shared redactor in every sink: the file, stderr (-v), the recent-lines ring: no canary byte survives;
 *  - -v unchanged: a warning shows without -v, info only with -v;
 *  - an unwritable log file: one warning, the run still succeeds.
 * The three runs go side by side.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

const ENV_SECRET = "canary-env-5f3a9c1d7e";
const URL_PW = "canary-pw-81bd2c";
const KEYS = ["sk-ant-api03-canaryKEY9x8y7z6w5v", "AKIACANARYABCDEFGHIJ", "ghp_canary000111222333444555666", "canaryBearer0123456789", "canary-xkey-4242"];
const CANARIES = [ENV_SECRET, URL_PW, ...KEYS];

const PROBE = `import fs from "node:fs";
export default { activate(ctx) {
  const obs = ctx.services.get("obs");
  const h = ctx.services.get("engine").hooks;
  const filler = Number(process.env.PROBE_FILLER ?? "0");
  h.afterStep.tap({ name: "logprobe" }, (rec) => {
    ctx.log.warn("probe warning step " + rec.ctx.step + " env " + process.env.OC_PROBE_SECRET + " db postgres://bob:${URL_PW}@db.example:5432/x");
    ctx.log.info("probe info key ${KEYS[0]} aws ${KEYS[1]}", { header: "Authorization: Bearer ${KEYS[3]}", nested: { token: "${KEYS[2]}", env: process.env.OC_PROBE_SECRET } });
    ctx.log.debug("probe debug x-api-key: ${KEYS[4]}");
    for (let i = 0; i < filler; i++) ctx.log.debug("filler " + i + " " + "x".repeat(100));
  });
  h.sessionEnd.tap({ name: "logprobe" }, () => fs.writeFileSync(process.env.PROBE_RING, JSON.stringify(obs.recentLines(200))));
} };
`;

interface Case {
  sb: Sandbox;
  fake: FakeAnthropicServer;
  ring: string;
  log: string;
  run: RunResult;
}

const open: Array<{ sb: Sandbox; fake: FakeAnthropicServer }> = [];
afterAll(async () => {
  for (const o of open) {
    await o.fake.close();
    o.sb.cleanup();
  }
});

async function start(obs: Record<string, unknown> | undefined, flags: string[], extra: NodeJS.ProcessEnv = {}, hook = false): Promise<Case> {
  const sb = makeSandbox("oc-obs-logs-");
  // a PreToolUse hook on every tool: the hooks extension's line about it is written inside the step
  if (hook) sb.write(".oceancode/settings.json", JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `${JSON.stringify(process.execPath)} -e ""` }] }] } }));
  const fake = await startFakeAnthropic();
  open.push({ sb, fake });
  sb.write(".oceancode/extensions/logprobe/manifest.json", JSON.stringify({ id: "logprobe", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine", "obs"], activation: ["onSession"] }), "home");
  sb.write(".oceancode/extensions/logprobe/index.js", PROBE, "home");
  const log = path.join(sb.home, "logs", "oc.log");
  if (obs) sb.write(".config/oceancode/oceancode.json", JSON.stringify({ obs: { log_file: log, ...obs } }), "home");
  const ring = path.join(sb.home, "ring.json");
  fake.enqueue({ toolCalls: [{ name: "ls", input: {} }] }, { text: "all done" });
  const env = anthropicEnv(sb, fake.url, { OC_PROBE_SECRET: ENV_SECRET, PROBE_RING: ring, ...extra });
  const run = await runCliAsync([...flags, "run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "list the files"], { cwd: sb.project, env, timeoutMs: 90_000 });
  return { sb, fake, ring, log, run };
}

function noCanary(label: string, bytes: string): void {
  for (const c of CANARIES) expect(bytes.includes(c), `${label} carries canary ${c}`).toBe(false);
}

type Line = Record<string, unknown> & { level: string; time: string; ext: string; msg: string };
const parse = (text: string): Line[] => text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Line);

describe("obs: the structured log through the CLI", () => {
  let cases: [Case, Case, Case];
  it("three runs (debug file with -v; rotation without -v; an unwritable log file) all succeed", async () => {
    const notDir = makeSandbox("oc-obs-notdir-");
    open.push({ sb: notDir, fake: { close: async () => {} } as FakeAnthropicServer });
    const blocker = notDir.write("a-file", "not a directory\n");
    cases = await Promise.all([
      start({ log_level: "debug" }, ["-v"], {}, true),
      start({ log_level: "debug", log_rotate_bytes: 4096, log_keep: 2 }, [], { PROBE_FILLER: "40" }),
      start(undefined, [], { OC_LOG_FILE: path.join(blocker, "oc.log") }),
    ]);
    for (const c of cases) {
      expect(c.run.code, c.run.stderr).toBe(0);
      expect(c.run.stdout).toContain("all done");
    }
  }, 120_000);

  it("the file at debug: JSON lines with time, level, ext, session, turn, step and msg; engine, hooks and probe lines inside the step", () => {
    const lines = parse(fs.readFileSync(cases[0].log, "utf8"));
    for (const l of lines) {
      expect(Number.isNaN(Date.parse(l.time)), l.time).toBe(false);
      expect(l.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(["trace", "debug", "info", "warn", "error"]).toContain(l.level);
      expect(typeof l.ext).toBe("string");
      expect(typeof l.msg).toBe("string");
    }
    const tool = lines.find((l) => l.ext === "engine" && l.msg === "tool ls ok");
    expect(tool, JSON.stringify(lines)).toMatchObject({ level: "debug", turn: 1, step: 1, tool: "ls" });
    expect(String(tool!.session)).toMatch(/^ses_/);
    const hook = lines.find((l) => l.ext === "hooks" && l.msg.startsWith("hook PreToolUse("));
    expect(hook, JSON.stringify(lines.filter((l) => l.ext === "hooks"))).toMatchObject({ level: "info", session: tool!.session, turn: 1, step: 1 });
    const probe = lines.filter((l) => l.ext === "logprobe");
    expect(probe.map((l) => `${l.level}@${String(l.step)}`)).toEqual(["warn@1", "info@1", "debug@1", "warn@2", "info@2", "debug@2"]);
    for (const l of probe) expect(l.session).toBe(tool!.session);
    // fields are redacted too, and kept as structure
    expect(probe[1]).toMatchObject({ header: "Authorization: Bearer ***", nested: { token: "***", env: "***" } });
  });

  it("the redactor in every sink: file, stderr (-v), ring; no canary byte anywhere, *** where each was", () => {
    const c = cases[0];
    const file = fs.readFileSync(c.log, "utf8");
    const ring = fs.readFileSync(c.ring, "utf8");
    for (const [label, bytes] of [["log file", file], ["stderr", c.run.stderr], ["ring", ring], ["stdout", c.run.stdout]] as const) noCanary(label, bytes);
    expect(file).toContain("postgres://bob:***@db.example:5432/x");
    expect(c.run.stderr).toContain("oceancode: warning: [logprobe] probe warning step 1 env *** db postgres://bob:***@db.example:5432/x");
    expect(c.run.stderr).toContain("oceancode: [logprobe] probe info key *** aws ***");
    expect(c.run.stderr).toContain("oceancode: [logprobe] probe debug x-api-key: ***");
    // the ring holds every level (debug too) as JSON lines
    const lines = (JSON.parse(ring) as string[]).map((l) => JSON.parse(l) as Line);
    expect(lines.some((l) => l.level === "debug" && l.ext === "logprobe" && l.msg === "probe debug x-api-key: ***")).toBe(true);
  });

  it("rotation at log_rotate_bytes keeps log_keep files, each under the size, every line whole and redacted", () => {
    const c = cases[1];
    const files = [c.log, `${c.log}.1`, `${c.log}.2`];
    for (const f of files) {
      expect(fs.existsSync(f), f).toBe(true);
      const bytes = fs.readFileSync(f, "utf8");
      expect(bytes.length).toBeLessThanOrEqual(4096);
      expect(bytes.endsWith("\n")).toBe(true);
      expect(parse(bytes).length).toBeGreaterThan(0);
      noCanary(f, bytes);
    }
    expect(fs.existsSync(`${c.log}.3`)).toBe(false);
    // the newest rotated file follows the oldest: .2's last line is older than .1's first
    const t = (f: string) => parse(fs.readFileSync(f, "utf8")).map((l) => Date.parse(l.time));
    expect(t(`${c.log}.2`).at(-1)!).toBeLessThanOrEqual(t(`${c.log}.1`)[0]!);
  });

  it("-v keeps its meaning: without it a warning shows (redacted) and info/debug do not", () => {
    const err = cases[1].run.stderr;
    expect(err).toContain("oceancode: warning: [logprobe] probe warning step 1 env ***");
    expect(err).not.toContain("probe info");
    expect(err).not.toContain("probe debug");
    expect(err).not.toContain("filler");
    noCanary("stderr", err);
  });

  it("an unwritable log file: one warning on stderr, and the run goes on", () => {
    const err = cases[2].run.stderr;
    expect(err.split("cannot write the log file").length - 1, err).toBe(1);
    expect(err).toMatch(/oceancode: warning: \[obs\] cannot write the log file .*a-file\/oc\.log: .*logging goes on without it/);
    expect(err).toContain("probe warning step 2");
  });
});
