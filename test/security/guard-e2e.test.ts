import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox, type RunResult } from "../kit/cli.js";

// The compiled CLI, `oceancode permissions check bash <command>`: decides, runs nothing.
async function checkAll(sb: Sandbox, commands: string[], extra: string[] = []): Promise<Map<string, RunResult>> {
  const out = new Map<string, RunResult>();
  // a few at a time: the machine is shared
  for (let i = 0; i < commands.length; i += 3) {
    const batch = commands.slice(i, i + 3);
    const rs = await Promise.all(batch.map((c) => runCliAsync(["--dir", sb.project, "permissions", "check", ...extra, "bash", c], { env: sb.env, timeoutMs: 120_000 })));
    rs.forEach((r, j) => out.set(batch[j]!, r));
  }
  return out;
}

describe("the guard's asks through the CLI (empty config: the base rule allows everything)", () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = makeSandbox();
  });
  afterAll(() => sb.cleanup());

  it("asks for a secret read, a persistent write, lost history and inline code; allows the near-miss", async () => {
    const asks = ["cat .env", "echo 'export X=1' >> ~/.bashrc", "git reset --hard", `python3 -c "import shutil; shutil.rmtree('build')"`];
    const allows = ["cat .env.example", "git reset --soft HEAD~1"];
    const rs = await checkAll(sb, [...asks, ...allows]);
    for (const c of asks) {
      const r = rs.get(c)!;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split("\n")[0], `${c}\n${r.stdout}`).toBe("ASK");
      expect(r.stdout).toContain("layer: guard");
    }
    for (const c of allows) expect(rs.get(c)!.stdout.split("\n")[0], c).toBe("ALLOW");
    expect(rs.get("cat .env")!.stdout).toContain("reason: reads a secret file: .env (a .env file): cat .env");
  }, 300_000);

  it("carries the segment's category in --json", async () => {
    const r = (await checkAll(sb, ["cat ~/.aws/credentials"], ["--json"])).get("cat ~/.aws/credentials")!;
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { action: string; segments: Array<{ kind: string; category?: string }> };
    expect(j.action).toBe("ask");
    expect(j.segments[0]).toMatchObject({ kind: "guard", category: "secret-read" });
  }, 120_000);
});

describe("the floor through the CLI, with everything allowed and bypassPermissions", () => {
  let sb: Sandbox;
  beforeAll(() => {
    sb = makeSandbox();
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["bash * allow"], permission_mode: "bypassPermissions", shell: { allow: ["Bash(*)"] } }));
  });
  afterAll(() => sb.cleanup());

  it("denies computed names, inline shell-outs and wrapped floor shapes", async () => {
    const cmds = ["$X -rf /", "`which rm` -rf /", `node -e "require('child_process').execSync('rm -rf /')"`, `sudo bash -c 'eval "rm -rf /"'`, `timeout 5 sh -c "cd / && rm -rf *"`, "echo x | echo 'rm -rf /' | sh"];
    const rs = await checkAll(sb, cmds);
    for (const c of cmds) {
      const r = rs.get(c)!;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split("\n")[0], `${c}\n${r.stdout}`).toBe("DENY");
      expect(r.stdout, c).toContain("layer: floor");
    }
  }, 300_000);
});
