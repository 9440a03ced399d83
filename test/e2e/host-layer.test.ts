/**
 * Issue 12, through the compiled CLI in a temp HOME: the command line's settings (--model, --max-steps, --db,
 * --directory) are the kernel's host config layer, never environment variables. Precedence: flag > $OC_* >
 * config file > default; inspect names the flag or variable; a child a tool spawns inherits no flag.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-host-");
});
afterEach(() => sb.cleanup());

const oc = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(["--dir", sb.project, ...args], { env: { ...sb.env, ...env }, cwd: sb.project });

interface Row {
  kind: string;
  id: string;
  layer: string;
  source: string;
  value?: unknown;
}
function inspect(args: string[], env: NodeJS.ProcessEnv = {}): (id: string) => Row | undefined {
  const r = oc([...args, "inspect", "--json"], env);
  expect(r.code, r.stderr).toBe(0);
  const rows = JSON.parse(r.stdout) as Row[];
  return (id) => rows.find((x) => (x.kind === "config" || x.kind === "path") && x.id === id);
}
/** the session event's model and the turn ends of one `run --format json` */
function runJson(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stderr: string; model?: string; ends: string[]; events: Array<Record<string, unknown>> } {
  const r = oc(["run", "--format", "json", ...args], env);
  const events = r.stdout.trim() ? r.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) : [];
  return {
    code: r.code,
    stderr: r.stderr,
    model: events.find((e) => e.type === "session")?.model as string | undefined,
    ends: events.filter((e) => e.type === "turn_end").map((e) => e.reason as string),
    events,
  };
}

describe("the host layer in inspect", () => {
  it("--model, --db and --directory show as host settings, with the flag as their source", () => {
    const db = path.join(sb.home, "elsewhere.db");
    const row = inspect(["--db", db, "--home", sb.home, "-m", "scripted/x"]);
    expect(row("model")).toMatchObject({ layer: "host", source: "--model", value: "scripted/x" });
    expect(row("database.path")).toMatchObject({ layer: "host", source: "--db", value: db });
    expect(row("project")).toMatchObject({ kind: "path", layer: "host", source: "--dir", value: sb.project });
    expect(row("home")).toMatchObject({ kind: "path", layer: "host", source: "--home", value: sb.home });
    // table form too
    const t = oc(["--db", db, "-m", "scripted/x", "inspect"]);
    expect(t.stdout).toMatch(/config\s+model\s+host\s+"scripted\/x"\s+--model/);
  });

  it("without flags: $OC_MODEL, $OC_MAX_STEPS and $OC_DB show as the env layer; nothing set is the default", () => {
    const plain = inspect([]);
    expect(plain("engine.max_steps")).toMatchObject({ layer: "default", source: "(built-in)", value: 300 });
    expect(plain("model")).toBeUndefined();
    expect(plain("project")).toMatchObject({ layer: "host", source: "--dir" });
    const row = inspect([], { OC_MODEL: "scripted/env", OC_MAX_STEPS: "7", OC_DB: path.join(sb.home, "env.db") });
    expect(row("model")).toMatchObject({ layer: "env", source: "$OC_MODEL", value: "scripted/env" });
    expect(row("engine.max_steps")).toMatchObject({ layer: "env", source: "$OC_MAX_STEPS", value: 7 });
    expect(row("database.path")).toMatchObject({ layer: "env", source: "$OC_DB", value: path.join(sb.home, "env.db") });
  });

  it("the project directory from the current directory is the default", () => {
    const r = runCli(["inspect", "--json"], { env: sb.env, cwd: sb.project });
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.find((x) => x.kind === "path" && x.id === "project")).toMatchObject({ layer: "default", source: "(current directory)" });
  });
});

describe("precedence: flag > environment > config file > default", () => {
  it("the model: --model over $OC_MODEL over the model key", () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ model: "scripted/echo" }));
    expect(runJson(["hi"]).model).toBe("scripted/echo");
    expect(inspect([])("model")).toMatchObject({ layer: "project" });
    sb.write("env.json", JSON.stringify({ steps: [{ text: "from env" }] }));
    expect(runJson(["hi"], { OC_MODEL: "scripted/env.json" }).model).toBe("scripted/env.json");
    sb.write("flag.json", JSON.stringify({ steps: [{ text: "from flag" }] }));
    expect(runJson(["--model", "scripted/flag.json", "hi"], { OC_MODEL: "scripted/env.json" }).model).toBe("scripted/flag.json");
    expect(inspect(["-m", "scripted/flag.json"], { OC_MODEL: "scripted/env.json" })("model")).toMatchObject({ layer: "host", value: "scripted/flag.json" });
  });

  it("the step cap: --max-steps over $OC_MAX_STEPS over engine.max_steps", () => {
    const steps = Array.from({ length: 5 }, (_, i) => ({ text: `s${i + 1}`, tool_calls: [{ name: "nope", input: {} }] }));
    sb.write("s.json", JSON.stringify({ steps: [...steps, { text: "finished" }] }));
    sb.write(".oceancode/oceancode.json", JSON.stringify({ engine: { max_steps: 4 } }));
    const file = runJson(["--model", "scripted/s.json", "go"]);
    expect(file.code, file.stderr).toBe(0);
    expect(file.ends).toEqual(["step_cap", "end_turn"]);
    const env = runJson(["--model", "scripted/s.json", "go"], { OC_MAX_STEPS: "2" });
    expect(env.ends).toEqual(["step_cap", "step_cap", "end_turn"]);
    // the flag wins even over a variable that would be refused on its own
    const flag = runJson(["--model", "scripted/s.json", "--max-steps", "3", "go"], { OC_MAX_STEPS: "0" });
    expect(flag.code, flag.stderr).toBe(0);
    expect(flag.ends).toEqual(["step_cap", "end_turn"]);
    const refused = oc(["run", "--model", "scripted/echo", "go"], { OC_MAX_STEPS: "0" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("oceancode run: OC_MAX_STEPS=0 is rejected: bound a long run with a budget or a clock instead");
  });

  it("--max-steps is stored on the session: it survives --continue over $OC_MAX_STEPS; a new flag replaces it", () => {
    const tools = (n: number) => ({ repeat: n, text: "step {{n}}", tool_calls: [{ name: "nope", input: {} }] });
    sb.write("s.json", JSON.stringify({ steps: [tools(4), { text: "one" }, tools(4), { text: "two" }, tools(4), { text: "three" }] }));
    const first = runJson(["--model", "scripted/s.json", "--max-steps", "2", "go"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.ends).toEqual(["step_cap", "step_cap", "end_turn"]);
    const resumed = runJson(["--continue", "more"], { OC_MAX_STEPS: "50" });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.ends).toEqual(["step_cap", "step_cap", "end_turn"]);
    const reflagged = runJson(["--continue", "--max-steps", "50", "again"]);
    expect(reflagged.ends).toEqual(["end_turn"]);
  });

  it("--max-steps 0 is still refused with the documented message (exit 2), before anything boots a session", () => {
    const r = oc(["run", "--model", "scripted/echo", "--max-steps", "0", "go"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("oceancode run: --max-steps must be a whole number above 0 (bound a long run with a budget or a clock instead)");
    expect(oc(["run", "--model", "scripted/echo", "--max-steps", "x", "go"]).code).toBe(2);
    expect(JSON.parse(oc(["sessions", "--all", "--json"]).stdout)).toEqual([]);
  });

  it("a config file's engine.max_steps of 0 is refused at boot, naming the file", () => {
    const f = sb.write(".oceancode/oceancode.json", JSON.stringify({ engine: { max_steps: 0 } }));
    const r = oc(["run", "--model", "scripted/echo", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${f}:1: engine.max_steps`);
  });

  it("the database: --db over $OC_DB over database.path in the user config; a project file cannot move it", () => {
    const userDb = path.join(sb.home, "user.db");
    const envDb = path.join(sb.home, "env.db");
    const flagDb = path.join(sb.home, "flag.db");
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ database: { path: userDb } }), "home");
    expect(oc(["run", "--model", "scripted/echo", "one"]).code).toBe(0);
    expect(fs.existsSync(userDb)).toBe(true);
    expect(oc(["run", "--model", "scripted/echo", "two"], { OC_DB: envDb }).code).toBe(0);
    expect(fs.existsSync(envDb)).toBe(true);
    const r = oc(["--db", flagDb, "run", "--model", "scripted/echo", "three"], { OC_DB: envDb });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(flagDb)).toBe(true);
    // each database holds its own session; --db is read by every command, migrate and doctor included
    const count = (env: NodeJS.ProcessEnv, args: string[] = []) => (JSON.parse(oc([...args, "sessions", "--all", "--json"], env).stdout) as unknown[]).length;
    expect(count({})).toBe(1);
    expect(count({ OC_DB: envDb })).toBe(1);
    expect(count({ OC_DB: envDb }, ["--db", flagDb])).toBe(1);
    expect(oc(["--db", flagDb, "migrate"]).stdout).toContain(flagDb);
    expect(oc(["--db", flagDb, "doctor", "--storage"]).stdout).toContain(`storage ${flagDb}`);
    // a (trusted or not) project file naming another database is ignored, with a warning
    sb.write(".oceancode/oceancode.json", JSON.stringify({ database: { path: path.join(sb.project, "mine.db") } }));
    const p = oc(["run", "--model", "scripted/echo", "four"]);
    expect(p.code, p.stderr).toBe(0);
    expect(fs.existsSync(path.join(sb.project, "mine.db"))).toBe(false);
    expect(count({})).toBe(2);
  });
});

describe("requirements.json pins are over the host layer", () => {
  it("--db under a folder that cannot be made (in /proc) fails at once, naming the folder; a deep new folder is made", () => {
    const r = runCli(["--dir", sb.project, "--db", "/proc/nope/x.db", "sessions"], { env: sb.env, cwd: sb.project, timeoutMs: 15_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("/proc/nope/x.db: cannot create the database folder (ENOENT");
    const deep = path.join(sb.home, "a", "b", "c", "x.db");
    expect(oc(["--db", deep, "run", "--model", "scripted/echo", "hi"]).code).toBe(0);
    expect(fs.existsSync(deep)).toBe(true);
  });

  it("a pinned model beats --model: run uses the pin and says the flag was ignored", () => {
    const keys = crypto.generateKeyPairSync("ed25519");
    const pub = keys.publicKey.export({ type: "spki", format: "der" }).subarray(-32).toString("hex");
    const req = path.join(path.dirname(sb.env.OC_MANAGED_CONFIG!), "requirements.json");
    const text = JSON.stringify({ config: { model: "scripted/echo" } });
    fs.mkdirSync(path.dirname(req), { recursive: true });
    fs.writeFileSync(req, text);
    fs.writeFileSync(`${req}.sig`, crypto.sign(null, Buffer.from(text), keys.privateKey).toString("base64"));
    sb.write("other.json", JSON.stringify({ steps: [{ text: "not pinned" }] }));
    const r = runJson(["--model", "scripted/other.json", "hi"], { OC_REQUIREMENTS_PUBKEY: pub });
    expect(r.code, r.stderr).toBe(0);
    expect(r.model).toBe("scripted/echo");
    expect(r.stderr).toContain(`oceancode: warning: --model ignored: model is pinned by ${req}`);
    // the same value as the pin: nothing to say
    expect(runJson(["--model", "scripted/echo", "hi"], { OC_REQUIREMENTS_PUBKEY: pub }).stderr).not.toContain("ignored");
  });
});

describe("a flag is not an environment variable", () => {
  it("a bash child does not see OC_MODEL, OC_MAX_STEPS or OC_DB set by --model, --max-steps and --db", () => {
    sb.write("s.json", JSON.stringify({ steps: [{ text: "env", tool_calls: [{ name: "bash", input: { command: "env" } }] }, { text: "done" }] }));
    const r = oc(["--db", path.join(sb.home, "flag.db"), "run", "--auto", "--format", "json", "--model", "scripted/s.json", "--max-steps", "40", "go"]);
    expect(r.code, r.stderr).toBe(0);
    const end = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; result?: { content: string; isError?: boolean } })
      .find((e) => e.type === "tool_call_end");
    expect(end?.result?.isError).toBeFalsy();
    const out = end!.result!.content;
    expect(out).toContain(`HOME=${sb.home}`); // it is the child's environment
    expect(out).not.toMatch(/^OC_(MODEL|MAX_STEPS|DB)=/m);
  });
});
