/**
 * `oceancode mcp doctor` through the compiled CLI: the reference server (user tier, trusted) is dialed and
 * reads reachable with its tools; a missing command reads failed with the reason; the project's .mcp.json
 * copy (untrusted) and a shadowed copy are never dialed; the summary line and exit code follow.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../../../test/kit/cli.js";

const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
let sb: Sandbox;

beforeAll(() => {
  sb = makeSandbox("oc-mcp-doctor-");
  sb.write(
    ".claude.json",
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        broken: { command: "/nonexistent/bin/mcp-server" },
        shared: { command: process.execPath, args: [EVERYTHING, "stdio"] },
      },
    }),
    "home",
  );
  // the project's copy of `shared` wins the name but is untrusted: held, so the user's copy runs
  sb.write(".mcp.json", JSON.stringify({ mcpServers: { shared: { command: "/never/run" }, repo: { command: "/never/run/either" } } }));
});
afterAll(() => sb.cleanup());

describe("oceancode mcp doctor", () => {
  it("dials only what may run: reachable with its tools, failed with why; held copies read their hold", () => {
    const r = runCli(["mcp", "doctor"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });
    const lines = r.stdout.trim().split("\n");
    expect(lines.find((l) => l.startsWith("everything  "))).toMatch(/^everything {2}reachable \(\d+ tools, \d+ ms\)$/);
    expect(lines.find((l) => l.startsWith("broken  "))).toMatch(/^broken {2}failed: .+/);
    expect(lines.find((l) => l.startsWith("repo  "))).toMatch(/^repo {2}untrusted: (?!untrusted)/);
    expect(lines.filter((l) => l.startsWith("shared  ")).some((l) => /reachable/.test(l))).toBe(true);
    expect(r.stdout).not.toContain("/never/run");
    expect(lines.at(-1)).toBe("DOCTOR_FAIL failed=1");
    expect(r.code).toBe(1);
  });

  it("with every ready server reachable: DOCTOR_OK, exit 0", () => {
    sb.write(".claude.json", JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }), "home");
    const r = runCli(["mcp", "doctor"], { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });
    expect(r.stdout.trim().split("\n").at(-1)).toBe("DOCTOR_OK");
    expect(r.code, r.stderr).toBe(0);
  });
});
