/**
 * A command that prints 400 MB through the bash tool (a scripted model call, the compiled CLI): the run's
 * peak memory stays flat (read from the process itself at exit: resourceUsage().maxRSS, the kernel's
 * VmHWM), the spill file is capped at tools.max_output_bytes with its head and tail, the model gets the
 * truncated view with the spill path, and oceancode's data holds the output once (no copy in the ledger
 * or the database). A smaller cap from the user's config is honoured.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type RunResult, type Sandbox } from "../kit/cli.js";

const MiB = 1024 * 1024;
const DEFAULT_CAP = 4 * MiB;

interface Measured {
  r: RunResult;
  peakKiB: number;
  dataDir: string;
}

let sb: Sandbox;
let preload: string;
let big: Measured;
let small: Measured;
let baseline: Measured;

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return n;
}

function spillFiles(dataDir: string): string[] {
  const root = path.join(dataDir, "tool-output");
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((s) => fs.readdirSync(path.join(root, s)).map((f) => path.join(root, s, f)));
}

/** One `run` in its own HOME whose script makes one bash call; the CLI reports its own peak RSS at exit. */
async function measured(name: string, command: string, config?: object): Promise<Measured> {
  const home = path.join(sb.home, "..", `home-${name}`);
  fs.mkdirSync(home, { recursive: true });
  if (config) {
    fs.mkdirSync(path.join(home, ".config", "oceancode"), { recursive: true });
    fs.writeFileSync(path.join(home, ".config", "oceancode", "oceancode.json"), JSON.stringify(config));
  }
  const script = path.join(sb.project, `${name}.json`);
  fs.writeFileSync(script, JSON.stringify({ steps: [{ text: "printing", tool_calls: [{ name: "bash", input: { command, timeout: 120000 } }] }, { text: "done" }] }));
  const peakFile = path.join(home, "peak.txt");
  const env = {
    ...sb.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    NODE_OPTIONS: `--require ${preload}`,
    OC_PEAK_FILE: peakFile,
  };
  const r = await runCliAsync(["run", "--auto", "--model", `scripted/${name}.json`, "print"], { cwd: sb.project, env, timeoutMs: 120_000 });
  const peakKiB = fs.existsSync(peakFile) ? Number(fs.readFileSync(peakFile, "utf8")) : NaN;
  return { r, peakKiB, dataDir: path.join(home, ".local", "share", "oceancode") };
}

beforeAll(async () => {
  sb = makeSandbox("oc-output-bound-");
  preload = path.join(sb.home, "..", "peak.cjs");
  // the process's own high-water mark (ru_maxrss, KiB on Linux), written as it exits
  fs.writeFileSync(preload, 'process.on("exit", () => { if (process.env.OC_PEAK_FILE) require("fs").writeFileSync(process.env.OC_PEAK_FILE, String(process.resourceUsage().maxRSS)); });\n');
  baseline = await measured("baseline", "echo small");
  big = await measured("big", "yes | head -c 400000000");
  small = await measured("small", "yes 0123456789abcdef | head -c 3000000", { tools: { max_output_bytes: MiB } });
}, 240_000);

afterAll(() => sb.cleanup());

describe("a 400 MB command output", () => {
  it("the run completes and the model's result is the truncated view with the spill path", () => {
    expect(big.r.code, big.r.stderr).toBe(0);
    const spill = spillFiles(big.dataDir);
    expect(spill).toHaveLength(1);
    const transcript = fs.readdirSync(path.join(big.dataDir, "session-ledger")).map((s) => path.join(big.dataDir, "session-ledger", s, "transcript", "turn-0001.md"))[0]!;
    const md = fs.readFileSync(transcript, "utf8");
    expect(md).toContain(`full output 400000000 bytes kept at ${spill[0]}; this is what the model saw`);
    expect(md).toContain(`the output's first and last bytes are kept at ${spill[0]}`);
  });

  it("peak memory stays flat: far under the output's size, near a run that prints nothing", () => {
    expect(Number.isFinite(big.peakKiB) && Number.isFinite(baseline.peakKiB)).toBe(true);
    const peakMiB = big.peakKiB / 1024;
    const baseMiB = baseline.peakKiB / 1024;
    // before the bound: ~1.6 GB for 400 MB (the output read back whole and copied); a flat run adds little
    expect(peakMiB, `peak ${peakMiB.toFixed(0)} MiB, baseline ${baseMiB.toFixed(0)} MiB`).toBeLessThan(Math.max(400, baseMiB + 200));
  });

  it("the spill file is capped at tools.max_output_bytes, keeping the head and the tail around a cut line", () => {
    const [file] = spillFiles(big.dataDir);
    const size = fs.statSync(file!).size;
    expect(size).toBeGreaterThan(DEFAULT_CAP - 1024);
    expect(size).toBeLessThan(DEFAULT_CAP + 1024);
    const text = fs.readFileSync(file!, "utf8");
    expect(text.startsWith("y\ny\n")).toBe(true);
    expect(text.endsWith("y\ny\n")).toBe(true);
    expect(text).toMatch(/\[\.\.\. \d+ bytes cut here: the output was 400000000 bytes/);
  });

  it("oceancode's data holds the output once: spill file + the model's view, no second copy in the ledger or the database", () => {
    const total = dirBytes(big.dataDir);
    expect(total).toBeLessThan(DEFAULT_CAP + MiB);
    const spill = fs.statSync(spillFiles(big.dataDir)[0]!).size;
    expect(total - spill).toBeLessThan(MiB);
  });
});

describe("tools.max_output_bytes from the user's config", () => {
  it("caps the spill file at the configured size", () => {
    expect(small.r.code, small.r.stderr).toBe(0);
    const [file] = spillFiles(small.dataDir);
    const size = fs.statSync(file!).size;
    expect(size).toBeLessThan(MiB + 1024);
    expect(size).toBeGreaterThan(MiB - 1024);
    // 3000000 bytes and the newline bash's result adds after a cut line
    expect(fs.readFileSync(file!, "utf8")).toMatch(/the output was 300000[01] bytes/);
  });
});
