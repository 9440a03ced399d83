/**
 * `oceancode attach <url>`: the pager in a real terminal against a running `oceancode serve` (the compiled
 * CLI on an ephemeral port, its model the fake Anthropic server). The pager's prompt runs on the server
 * (the fake sees the request with the server's key), the answer streams into the pager from the server's
 * event stream, a permission question of the server's session is answered with `y` in the pager and the
 * command runs on the server; the session is the server's (GET /session/{id} knows it). A server that is
 * not there is said before the screen is taken.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { closePager, hasTmux, openPager, type Pty } from "../../../test/kit/pty.js";
import { sentKey, startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

let sb: Sandbox | undefined;
let t: Pty | undefined;
let fake: FakeAnthropicServer | undefined;
let server: ChildProcess | undefined;

afterEach(async () => {
  await closePager(t, undefined);
  server?.kill("SIGKILL");
  await fake?.close();
  sb?.cleanup();
  t = undefined;
  sb = undefined;
  fake = undefined;
  server = undefined;
});

/** `oceancode serve --port 0` on the sandbox, answering with the fake model; resolves with its URL. */
async function serve(s: Sandbox, fakeUrl: string): Promise<string> {
  const env = { ...s.env, OC_MODEL: "anthropic/claude-haiku-4-5", ANTHROPIC_API_KEY: "sk-server", ANTHROPIC_BASE_URL: fakeUrl, OC_RETRY_BASE_MS: "10" };
  server = spawn(process.execPath, [CLI, "--dir", s.project, "serve", "--port", "0"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
    server!.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
  });
}

describe.skipIf(!hasTmux())("oceancode attach", () => {
  it("the pager's prompt runs on the server; its question is answered in the pager; the session is the server's", async () => {
    fake = await startFakeAnthropic();
    sb = makeSandbox("oc-pty-attach-");
    // every bash command asks on the server (a project rule may add asks in an untrusted checkout)
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * ask"] }));
    const url = await serve(sb, fake.url);
    const made = path.join(sb.project, "made-on-server.txt");
    let n = 0;
    fake.respond(() => {
      n += 1;
      if (n === 1) return { text: "hello from the server" };
      if (n === 2) return { text: "writing", toolCalls: [{ id: "t_w", name: "bash", input: { command: `echo attached > ${made}` } }] };
      return { text: "written on the server" };
    });
    // the pager process has no key of its own: every request must come from the server
    t = openPager(sb, { OC_MODEL: "anthropic/claude-haiku-4-5" }, ["attach", url]);
    await t.waitFor(/attached to http:\/\/127\.0\.0\.1:\d+ · session \S+/, 30_000, { inHistory: true });
    t.send("hi there");
    t.key("Enter");
    await t.waitFor("hello from the server", 30_000, { inHistory: true });
    expect(sentKey(fake.requests[0]!)).toBe("sk-server");
    await t.waitGone("working…", 20_000);
    t.send("write the file");
    t.key("Enter");
    await t.waitFor(/Allow bash\?[\s\S]*y once/, 30_000);
    t.send("y");
    await t.waitFor("written on the server", 30_000, { inHistory: true });
    expect(fs.readFileSync(made, "utf8")).toBe("attached\n");
    const id = /session (\S+)/.exec(t.history().match(/attached to \S+ · session \S+/)![0])![1]!;
    const got = (await (await fetch(`${url}/session/${id}`)).json()) as { id: string };
    expect(got.id).toBe(id);
  }, 120_000);

  it("a server that is not there: said before the screen is taken, exit 1", () => {
    const s = makeSandbox("oc-attach-none-");
    try {
      const r = runCli(["--dir", s.project, "attach", "http://127.0.0.1:1"], { env: s.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^oceancode attach: cannot reach http:\/\/127\.0\.0\.1:1: /m);
      const bad = runCli(["--dir", s.project, "attach"], { env: s.env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/usage: oceancode attach <url>/);
    } finally {
      s.cleanup();
    }
  });
});
