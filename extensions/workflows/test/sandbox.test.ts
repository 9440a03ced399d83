/**
 * The QuickJS sandbox, in process (the real WebAssembly build): the attacks a script can try end with a
 * clear error within its limits, nothing outside is touched, and the next run in the same process works.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compileCheck, isScriptError, readMeta, runScript, type SandboxLimits } from "../sandbox.js";

const LIMITS: SandboxLimits = { memoryBytes: 32 * 1024 * 1024, stackBytes: 256 * 1024, sliceMs: 500 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-wf-sandbox-"));
const canary = path.join(dir, "canary.txt");
fs.writeFileSync(canary, "canary-7f3a");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const script = (body: string) => `export const meta = { name: "t" };\nexport default async function main(api) {\n${body}\n}\n`;
async function run(body: string, ops: Parameters<typeof runScript>[2]["ops"] = {}): Promise<{ value?: unknown; error?: string; ms: number }> {
  const t0 = Date.now();
  try {
    const value = await runScript(script(body), "t.mjs", { args: { n: 1 }, ops, limits: LIMITS, halted: () => false, onHalt: new Promise(() => undefined) });
    return { value, ms: Date.now() - t0 };
  } catch (e) {
    expect(isScriptError(e)).toBe(true);
    return { error: (e as Error).message, ms: Date.now() - t0 };
  }
}

describe("sandbox attacks", () => {
  it.each([
    ["require", `return require("fs").readFileSync(${JSON.stringify(canary)}, "utf8")`, /'require' is not defined/],
    ["process", "process.exit(1)", /'process' is not defined/],
    ["fetch", 'return await globalThis.fetch("http://127.0.0.1:1/")', /not a function/],
    ["import", 'const fs = await import("fs"); fs.writeFileSync("x", "y")', /fs|module|import/i],
    ["host timers", "setTimeout(() => 1, 1)", /'setTimeout' is not defined/],
    ["an endless loop", "while (true) {}", /without awaiting the host .*time slice/],
    ["unbounded allocation", "const a = []; for (;;) a.push(new Array(100000).fill(1))", /memory limit/],
    ["unbounded recursion", "function f(n) { return f(n + 1) + 1 } return f(0)", /stack/],
  ])("%s ends with a clear error", async (_name, body, pattern) => {
    const r = await run(body);
    expect(r.error).toMatch(pattern);
    // bounded by the sandbox (2 s slices, 64 MB), not by this machine: loose for a loaded CI (one took 12.9 s there)
    expect(r.ms).toBeLessThan(30_000);
    expect(fs.readFileSync(canary, "utf8")).toBe("canary-7f3a");
  });

  it("the host is unharmed: the next run in this process works and sees only the host API", async () => {
    const calls: unknown[] = [];
    const r = await run('await api.progress("p"); return { args: api.args, g: typeof process + typeof require + typeof fetch, frozen: Object.isFrozen(api) }', {
      progress: async (a) => {
        calls.push(a);
        return undefined;
      },
    });
    expect(r).toMatchObject({ value: { args: { n: 1 }, g: "undefinedundefinedundefined", frozen: true } });
    expect(calls).toEqual(["p"]);
  });

  it("a host call's error is a catchable script error; an unknown op is refused", async () => {
    const r = await run('try { await api.session({}); } catch (e) { return "caught: " + e.message }', { session: async () => Promise.reject(new Error("prompt must be a non-empty string")) });
    expect(r.value).toBe("caught: prompt must be a non-empty string");
  });

  it("meta is read with no host API, bounded; compileCheck names line and column", async () => {
    expect(await readMeta('export const meta = { name: "n", description: "d" };', "m.mjs")).toEqual({ name: "n", description: "d" });
    await expect(readMeta("while (true) {}\nexport const meta = { name: 'n' };", "loop.mjs")).rejects.toThrow(/time slice/);
    await expect(readMeta("export const x = 1;", "none.mjs")).rejects.toThrow(/meta\.name/);
    expect(await compileCheck("export default async function main(api) {\n  return (;\n}", "bad.mjs")).toMatch(/^bad\.mjs:2:\d+: SyntaxError/);
    expect(await compileCheck(script("return 1"), "ok.mjs")).toBeUndefined();
  });

  it("the examples under examples/workflows compile and declare a name", async () => {
    const ex = path.resolve(__dirname, "..", "..", "..", "examples", "workflows");
    const files = fs.readdirSync(ex).filter((f) => f.endsWith(".mjs"));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) {
      const src = fs.readFileSync(path.join(ex, f), "utf8");
      expect(await compileCheck(src, f)).toBeUndefined();
      expect((await readMeta(src, f)).name).toMatch(/\S/);
    }
  });
});
