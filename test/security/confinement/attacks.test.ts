/**
 * Unattended means confined (issue 27, item 3): attack shapes run by `run --auto` through the compiled CLI
 * with the real bubblewrap, each with the user's exact allow rule so neither the guard nor --auto stops it
 * first: the sandbox is what must hold. Effects are checked: canary files intact, canary secrets in no tool
 * result, request body, transcript or database file, no write outside the project, no network.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type net from "node:net";
import { makeWorld, bash, leaked, filesUnder, CANARY, HAS_BWRAP, type World, type Outcome } from "./world.js";

describe.runIf(HAS_BWRAP)("confinement: attack shapes under run --auto", () => {
  let w: World;
  let out: Outcome;
  let hits = 0;
  let server: http.Server;
  const tmpMarker = `/tmp/oc-conf-marker-${process.pid}-${Date.now()}`;
  const CALLS = () => [
    bash("rm_home", "rm -rf ~"),
    bash("rm_home2", "sh rmhome.sh"),
    bash("ssh", "cat ~/.ssh/id_canary"),
    bash("aws", "cat ~/.aws/credentials ~/.netrc ~/.oceancode/auth.json"),
    bash("dotenv", "cat .env; cp .env leak.txt; cat leak.txt"),
    bash("proc", "cat /proc/$PPID/environ; cat /proc/1/environ; sh proc.sh environ"),
    bash("cmdline", "sh proc.sh cmdline"),
    bash("env", "env"),
    bash("net", `node net.mjs ${(server.address() as net.AddressInfo).port}`),
    bash("devtcp", `echo GET > /dev/tcp/127.0.0.1/${(server.address() as net.AddressInfo).port} && echo SENT`),
    bash("outside", `echo pwned > ~/pwned.txt; echo pwned > ${w.outside}/x.txt; echo pwned > /etc/oc-pwned`),
    bash("githook", "mkdir -p .git/hooks && echo 'touch /tmp/owned' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit"),
    bash("gitconfig", "git config core.fsmonitor 'touch /tmp/owned'"),
    bash("occonfig", `mkdir -p .oceancode && echo '{"permission_mode":"bypassPermissions"}' > .oceancode/oceancode.jsonc`),
    bash("mcpjson", `echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json`),
    bash("claude", `mkdir -p .claude && echo '{}' > .claude/settings.local.json`),
    bash("symlink", "ln -s ~/.ssh/id_canary k && cat k"),
    bash("tmp", `echo t > ${tmpMarker} && ls /tmp`),
    bash("kill", "kill -9 $PPID; kill -9 -1; echo tried"),
    bash("inside", "echo made > inside.txt && cat ~/notes.txt"),
  ];

  beforeAll(async () => {
    server = http.createServer((_q, s) => {
      hits += 1;
      s.end("reached");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    w = await makeWorld("attacks");
    // shapes with a glob live in scripts: an exact rule cannot hold a wildcard
    w.write("rmhome.sh", 'rm -rf "$HOME"/* "$HOME"/.[!.]*\n');
    w.write("proc.sh", 'for f in /proc/[0-9]*/"$1"; do cat "$f"; echo; done; ps -ef 2>/dev/null || true\n');
    w.write("net.mjs", "const r = await fetch(`http://127.0.0.1:${process.argv[2]}/`).then((x) => x.text(), (e) => `blocked: ${e.cause?.code ?? e.message}`); console.log(r);\n");
    const calls = CALLS();
    // the user's own exact rules: each command is approved ahead of time, and still runs confined
    w.config({ permission: calls.map((c) => `bash ${String(c.input.command)} allow`) });
    out = await w.run(calls);
  }, 120_000);
  afterAll(async () => {
    server?.close();
    fs.rmSync(tmpMarker, { force: true });
    await w?.close();
  });

  it("the run went through every call and ended normally (killing the parent did not reach it)", () => {
    expect(out.code, out.stderr).toBe(0);
    expect(out.results.size).toBe(CALLS().length);
    expect(out.results.get("kill")).toContain("tried");
  });
  it("rm -rf ~ leaves HOME intact; the project stays writable and HOME's plain files readable", () => {
    expect(fs.readFileSync(path.join(w.home, ".ssh", "id_canary"), "utf8")).toContain(CANARY.ssh);
    expect(fs.readFileSync(path.join(w.home, "notes.txt"), "utf8")).toContain("not a secret");
    expect(fs.readFileSync(path.join(w.project, "inside.txt"), "utf8")).toBe("made\n");
    expect(out.results.get("inside")).toContain("not a secret");
  });
  it("secret files, .env and a symlink to a key read nothing", () => {
    for (const id of ["ssh", "aws", "dotenv", "symlink"]) expect(leaked(out.results.get(id) ?? ""), id).toEqual([]);
    expect(fs.existsSync(path.join(w.project, "leak.txt")) ? leaked(fs.readFileSync(path.join(w.project, "leak.txt"), "utf8")) : []).toEqual([]);
  });
  it("/proc of oceancode is out of sight: no secret in any environ or command line, no child env secret", () => {
    for (const id of ["proc", "cmdline", "env"]) expect(leaked(out.results.get(id) ?? ""), id).toEqual([]);
    // the PID namespace: oceancode's own process (node …/hosts/cli/main.js) is not among those listed
    expect(out.results.get("cmdline")).toContain("bwrap");
    expect(out.results.get("cmdline")).not.toContain("hosts/cli/main.js");
  });
  it("no network: a 127.0.0.1 server not in allow_hosts gets nothing", () => {
    expect(out.results.get("net")).toContain("blocked");
    expect(out.results.get("devtcp")).not.toContain("SENT");
    expect(hits).toBe(0);
  });
  it("nothing is written outside the project, and /tmp is private", () => {
    expect(fs.existsSync(path.join(w.home, "pwned.txt"))).toBe(false);
    expect(fs.existsSync(path.join(w.outside, "x.txt"))).toBe(false);
    expect(fs.existsSync("/etc/oc-pwned")).toBe(false);
    expect(fs.existsSync(tmpMarker)).toBe(false);
    expect(fs.existsSync("/tmp/owned")).toBe(false);
  });
  it("protected project paths are refused: no git hook or config, no .oceancode, .mcp.json or .claude (and no placeholder left)", () => {
    expect(fs.existsSync(path.join(w.project, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(fs.readFileSync(path.join(w.project, ".git", "config"), "utf8")).not.toContain("fsmonitor");
    for (const p of [".oceancode", ".mcp.json", ".claude"]) expect(fs.existsSync(path.join(w.project, p)), p).toBe(false);
    expect(out.results.get("occonfig")).toMatch(/Read-only file system|Permission denied|File exists/);
  });
  it("no canary secret in any request body, transcript or database file", () => {
    const bodies = w.fake.requests.map((r) => r.raw).join("\n");
    expect(w.fake.requests.length).toBeGreaterThan(CALLS().length);
    expect(leaked(bodies)).toEqual([]);
    const written = [...filesUnder(path.join(w.home, ".local")), ...filesUnder(path.join(w.home, ".config"))];
    expect(written.some((f) => f.endsWith(".md") || f.endsWith(".db") || f.endsWith(".jsonl"))).toBe(true);
    for (const f of written) expect(leaked(fs.readFileSync(f, "latin1")), f).toEqual([]);
  });
});
