/**
 * `oceancode mcp login | logout` against a real OAuth-protected Streamable HTTP server on loopback (the
 * fixture with --oauth: discovery, dynamic registration, PKCE, refresh). The "browser" is a plain fetch
 * of the printed URL, following the 302 back to the CLI's loopback listener. Then a session presents the
 * stored token, refreshes it when the server voids it, and logout takes the server back to needs-auth.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, CLI, makeSandbox, runCli, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { FIXTURE } from "./helpers.js";

let sb: Sandbox;
let url = "";
let server: ChildProcess;
let authFile = "";

type Record = { type: string; url: string; redirectUrl: string; client?: { client_id: string }; tokens?: { access_token: string; refresh_token?: string } };
const stored = (): Record | undefined => (JSON.parse(fs.readFileSync(authFile, "utf8")) as { [k: string]: Record })["mcp:web"];

/** Run `mcp login web`, play the browser with fetch, and return what the CLI printed and its exit code. */
async function loginByFetch(extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string; page: string }> {
  const child = spawn(process.execPath, [CLI, "mcp", "login", "web", ...extra], { cwd: sb.project, env: sb.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const authorizeUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${stdout} ${stderr}`)), 30_000);
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const m = /^ {2}(http\S+)$/m.exec(stdout);
      if (m && /Waiting for the browser/.test(stdout)) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("close", () => reject(new Error(`login ended early: ${stdout} ${stderr}`)));
  });
  const page = await (await fetch(authorizeUrl)).text();
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr, page };
}

beforeAll(async () => {
  sb = makeSandbox("oc-mcp-login-");
  const urlFile = path.join(sb.home, "web.url");
  server = spawn(process.execPath, [FIXTURE, "--http", urlFile, "--oauth", "--name", "web"], { stdio: "ignore" });
  for (let i = 0; i < 200 && !fs.existsSync(urlFile); i++) await new Promise((r) => setTimeout(r, 25));
  url = fs.readFileSync(urlFile, "utf8");
  sb.write(".claude.json", JSON.stringify({ mcpServers: { web: { type: "http", url }, local: { command: "/bin/true" } } }), "home");
  sb.write(".mcp.json", JSON.stringify({ mcpServers: { repo: { type: "http", url } } }));
}, 30_000);

afterAll(() => {
  server?.kill("SIGKILL");
  sb?.cleanup();
});

describe("oceancode mcp login / logout", () => {
  it("before a login the server reads needs-auth and names the command", () => {
    const r = runCli(["mcp", "doctor"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });
    expect(r.stdout).toMatch(/^web {2}needs-auth: .*oceancode mcp login web/m);
    expect(r.code).toBe(1);
  });

  it("login runs the authorization in the browser and stores the tokens in auth.json, mode 0600", async () => {
    // a provider key stored before stays beside the OAuth record
    expect(runCli(["key", "anthropic", "sk-ant-kept"], { cwd: sb.project, env: sb.env }).code).toBe(0);
    const r = await loginByFetch();
    expect(r.code, r.stderr).toBe(0);
    expect(r.page).toContain("oceancode is authorized");
    const m = /^logged in to web: tokens stored in (.+)$/m.exec(r.stdout);
    expect(m, r.stdout).toBeTruthy();
    authFile = m![1]!;
    expect(fs.statSync(authFile).mode & 0o777).toBe(0o600);
    const rec = stored()!;
    expect(rec).toMatchObject({ type: "oauth", url });
    expect(rec.tokens?.access_token).toMatch(/^at-/);
    expect(rec.client?.client_id).toMatch(/^client-/);
    expect(JSON.parse(fs.readFileSync(authFile, "utf8")).anthropic).toEqual({ type: "api", key: "sk-ant-kept" });
    // the printed URL is the authorization request: PKCE S256, our loopback redirect, a state
    expect(r.stdout).toMatch(/code_challenge_method=S256/);
    expect(r.stdout).toMatch(/redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
    // the token itself never reaches the terminal
    expect(r.stdout + r.stderr).not.toContain(rec.tokens!.access_token);
  }, 60_000);

  it("with the stored login the server is reachable", () => {
    const r = runCli(["mcp", "doctor"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });
    expect(r.stdout).toMatch(/^web {2}reachable \(\d+ tools/m);
  });

  it("a session refreshes a voided access token on its own and saves the new one", async () => {
    const before = stored()!.tokens!;
    await fetch(new URL("/test/expire", url), { method: "POST" });
    const fake: FakeAnthropicServer = await startFakeAnthropic();
    try {
      let i = 0;
      fake.respond(() => (i++ === 0 ? { text: "adding", toolCalls: [{ id: "t1", name: "mcp__web__add", input: { a: 2, b: 3 } }] } : { text: "done" }));
      const r = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "add"], { cwd: sb.project, env: anthropicEnv(sb, fake.url, { OC_MCP_WAIT_SECONDS: "20" }), timeoutMs: 90_000 });
      expect(r.code, r.stderr).toBe(0);
      const last = JSON.stringify(fake.requests.at(-1)!.body.messages);
      expect(last).toContain("sum=5");
    } finally {
      await fake.close();
    }
    const after = stored()!.tokens!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
  }, 120_000);

  it("a callback with another state is refused and the login keeps waiting for its own", async () => {
    const child = spawn(process.execPath, [CLI, "mcp", "login", "web", "--no-browser"], { cwd: sb.project, env: { ...sb.env, OC_MCP_LOGIN_SECONDS: "20" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    const redirect = await new Promise<string>((resolve) =>
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        const m = /come back to (\S+) \(/.exec(stdout);
        if (m) resolve(m[1]!);
      }),
    );
    const forged = await fetch(`${redirect}?code=stolen&state=not-ours`);
    expect(forged.status).toBe(400);
    const real = /^ {2}(http\S+)$/m.exec(stdout)![1]!;
    expect((await fetch(real)).status).toBe(200);
    expect(await new Promise((r) => child.on("close", r))).toBe(0);
  }, 60_000);

  it("logout forgets the login: the record is gone and the server needs auth again", () => {
    const r = runCli(["mcp", "logout", "web"], { cwd: sb.project, env: sb.env });
    expect(r.stdout).toBe("logged out of web\n");
    expect(stored()).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(authFile, "utf8")).anthropic).toEqual({ type: "api", key: "sk-ant-kept" });
    expect(runCli(["mcp", "logout", "web"], { cwd: sb.project, env: sb.env }).stdout).toBe("no stored login for web\n");
    const d = runCli(["mcp", "doctor"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });
    expect(d.stdout).toMatch(/^web {2}needs-auth/m);
  });

  it("login refuses a stdio server, an untrusted repo server and an unknown name, dialing nothing", () => {
    const stdio = runCli(["mcp", "login", "local"], { cwd: sb.project, env: sb.env });
    expect(stdio.code).toBe(1);
    expect(stdio.stderr).toMatch(/'local' is a stdio server; login is for remote/);
    const repo = runCli(["mcp", "login", "repo"], { cwd: sb.project, env: sb.env });
    expect(repo.code).toBe(1);
    expect(repo.stderr).toMatch(/'repo' is held untrusted \(project\); trust it first: oceancode trust mcp repo on/);
    const none = runCli(["mcp", "login", "nope"], { cwd: sb.project, env: sb.env });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no server named 'nope'/);
  });
});
