/**
 * The PostgreSQL URL's password is shown nowhere: not in `inspect` (table and JSON), `doctor --storage`,
 * `migrate`, `sessions`, `run` (also with -v, and when the server refuses or is not there), `storage copy`,
 * nor in any file oceancode writes (the ledger, the data and state directories). The tests look for the
 * literal password of a real PostgreSQL server's superuser (scram-sha-256 over TCP, so the password is used).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { globalConfig, oc } from "../sdk/helpers.js";
import { startPostgres, type TestPostgres } from "../kit/postgres.js";
import { redactText, redactUrl } from "../../extensions/storage-postgres/kit.js";

let server: TestPostgres;
let sb: Sandbox;
beforeAll(async () => {
  server = await startPostgres();
  sb = makeSandbox("oc-pg-redact-");
});
afterAll(() => {
  sb?.cleanup();
  server?.stop();
});

/** every file under dir whose bytes contain needle */
function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fs.readFileSync(p).includes(needle)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

describe("redactUrl", () => {
  it("hides the password of URLs and password= parameters, keeps user, host, port and database", () => {
    expect(redactUrl("postgres://me:s3cr%40t@db.example:5433/oc?sslmode=require")).toBe("postgres://me:***@db.example:5433/oc?sslmode=require");
    expect(redactUrl("postgresql://me@h/db?password=abc&sslpassword=def")).toBe("postgresql://me@h/db?password=***&sslpassword=***");
    expect(redactUrl("connect failed for postgres://u:p@h/d and postgres://v:q@i/e")).toBe("connect failed for postgres://u:***@h/d and postgres://v:***@i/e");
    expect(redactUrl("postgres://h/db")).toBe("postgres://h/db");
    expect(redactText("auth failed: p4ssw0rd-x", "postgres://u:p4ssw0rd-x@h/d")).toBe("auth failed: ***");
  });
});

describe("the database password never appears", () => {
  it("in any output of inspect, doctor, migrate, run (-v), sessions, storage copy, or any file written", async () => {
    const url = await server.createDatabase("redact");
    const pw = server.password;
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } }, storage: { url } });
    const outputs: Array<[string, { stdout: string; stderr: string }]> = [];
    const run = (name: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
      const r = oc(sb, args, env);
      outputs.push([name, r]);
      return r;
    };
    expect(run("run", ["-v", "run", "--model", "scripted/echo", "hello"]).code).toBe(0);
    expect(run("continue", ["run", "--continue", "--model", "scripted/echo", "again"]).code).toBe(0);
    expect(run("migrate", ["migrate"]).code).toBe(0);
    expect(run("sessions", ["sessions", "--all", "--json"]).code).toBe(0);
    const d = run("doctor", ["doctor", "--storage"]);
    expect(d.stdout).toContain("postgres://postgres:***@127.0.0.1");
    const inspect = run("inspect", ["inspect"]);
    expect(inspect.stdout).toMatch(/storage\.url\s+global\s+"postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/);
    run("inspect --json", ["inspect", "--json"]);
    // the env variable's value is redacted too, and named as its source
    expect(run("inspect env", ["inspect"], { OC_DATABASE_URL: url }).stdout).toMatch(/storage\.url\s+env\s+"postgres:\/\/postgres:\*\*\*@.*\$OC_DATABASE_URL/);
    // failures: a wrong password (the server refuses it), a server that is not there
    const wrong = url.replace(encodeURIComponent(pw), `${pw}-wrong`);
    const refused = run("wrong password", ["-v", "run", "--model", "scripted/echo", "x"], { OC_DATABASE_URL: wrong });
    globalConfig(sb, { extensions: { replace: { storage: "storage-postgres" } } });
    const refused2 = run("wrong password (env)", ["-v", "run", "--model", "scripted/echo", "x"], { OC_DATABASE_URL: wrong });
    expect(refused2.code).not.toBe(0);
    expect(refused2.stderr).toMatch(/password authentication failed/);
    run("no server", ["doctor", "--storage"], { OC_DATABASE_URL: `postgres://postgres:${pw}@127.0.0.1:1/x` });
    run("no server run", ["run", "--model", "scripted/echo", "x"], { OC_DATABASE_URL: `postgres://postgres:${pw}@127.0.0.1:1/x` });
    run("copy bad args", ["storage", "copy", "--to", `postgres://postgres:${pw}@127.0.0.1:1/x`]);
    run("copy no server", ["storage", "copy", "--from", path.join(sb.project, "nope.db"), "--to", `postgres://postgres:${pw}@127.0.0.1:1/x`]);
    expect(refused.code).not.toBe(0); // $OC_DATABASE_URL (env layer) wins over the user config's storage.url
    for (const [name, r] of outputs) {
      expect(r.stdout.includes(pw) || r.stdout.includes(encodeURIComponent(pw)), `${name} stdout: ${r.stdout}`).toBe(false);
      expect(r.stderr.includes(pw) || r.stderr.includes(encodeURIComponent(pw)), `${name} stderr: ${r.stderr}`).toBe(false);
    }
    // files: everything oceancode wrote under the sandbox's data and state directories and the project
    const written = [path.join(sb.home, ".local"), sb.project].flatMap((d) => filesContaining(d, pw));
    expect(written).toEqual([]);
  });
});
