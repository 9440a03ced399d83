/**
 * An untrusted checkout's memory files (CLAUDE.md, a rule, a nested directory's CLAUDE.md) import only
 * files inside the project: `@~/.pgpass`, `@~/.my.cnf`, `@~/.bash_history`, `@../outside.md`, an absolute
 * path and a symlink to a home file leave a marker, and no canary reaches a request body, the database or
 * the ledger. A file inside the project still imports. Once the repo is trusted, a home import loads
 * (the positive control: the rule is the tier, not the path alone).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCli, runCliAsync, type RunResult, type Sandbox } from "../kit/cli.js";
import { startFakeAnthropic, type AnthropicRecorded, type FakeAnthropicServer } from "../kit/fakes/anthropic-server.js";
import { allFilesText, CANARIES, commitCheckout, plantCanaries, toolResultCount } from "./repo-text-fixtures.js";

let fake: FakeAnthropicServer;
let sb: Sandbox;
let untrusted: { r: RunResult; requests: AnthropicRecorded[]; stored: string };
let trusted: { r: RunResult; requests: AnthropicRecorded[] };
let inspectRows: Array<{ kind: string; id: string; state: string }> = [];

async function run(): Promise<{ r: RunResult; requests: AnthropicRecorded[] }> {
  const before = fake.requests.length;
  const r = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "go"], { cwd: sb.project, env: anthropicEnv(sb, fake.url), timeoutMs: 60_000 });
  return { r, requests: fake.requests.slice(before) };
}

beforeAll(async () => {
  fake = await startFakeAnthropic();
  sb = makeSandbox("oc-repo-memory-");
  plantCanaries(sb);
  sb.write("notes.md", "HOME NOTE for trusted projects\n", "home");
  const pgpass = path.join(sb.home, ".pgpass");
  sb.write(
    "CLAUDE.md",
    [
      "REPO MEMORY",
      "@docs/inside.md",
      "@~/.pgpass",
      "@~/.my.cnf",
      "@~/.bash_history",
      "@../outside.md",
      "@../../project/../outside.md",
      `@${pgpass}`,
      "@docs/link.md",
      "@~/notes.md",
      "",
    ].join("\n"),
  );
  sb.write("docs/inside.md", "INSIDE DOC (imported)\n");
  fs.symlinkSync(pgpass, path.join(sb.project, "docs", "link.md"));
  sb.write(".claude/rules/db.md", "DB RULE @~/.my.cnf\n");
  sb.write("sub/CLAUDE.md", "SUB MEMORY @~/.bash_history\n");
  sb.write("sub/file.txt", "a file in sub\n");
  commitCheckout(sb.project);
  // the model reads a file in sub/, which brings sub/CLAUDE.md (and its import) in through the tool result
  fake.respond((req) => (toolResultCount(req) === 0 ? { text: "reading", toolCalls: [{ id: "t_read", name: "read", input: { file_path: path.join(sb.project, "sub", "file.txt") } }] } : { text: "done" }));
  const u = await run();
  untrusted = { ...u, stored: allFilesText(path.join(sb.home, ".local", "share", "oceancode")) };
  const ins = runCli(["--dir", sb.project, "inspect", "--json"], { env: sb.env });
  expect(ins.code, ins.stderr).toBe(0);
  inspectRows = (JSON.parse(ins.stdout) as typeof inspectRows).filter((x) => x.kind === "instruction");
  expect(runCli(["--dir", sb.project, "trust", "repo", "on"], { env: sb.env }).code).toBe(0);
  trusted = await run();
}, 120_000);

afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("an untrusted checkout's @imports", () => {
  it("the run completes; the repo memory, the rule, the nested memory and the inside import load", () => {
    expect(untrusted.r.code, untrusted.r.stderr).toBe(0);
    const sent = untrusted.requests.map((q) => JSON.stringify(q.body.messages)).join("\n");
    for (const s of ["REPO MEMORY", "INSIDE DOC (imported)", "DB RULE", "SUB MEMORY"]) expect(sent).toContain(s);
  });

  it("no canary secret is in any request body", () => {
    const bodies = untrusted.requests.map((q) => JSON.stringify(q.body)).join("\n");
    for (const c of Object.values(CANARIES)) expect(bodies).not.toContain(c);
    expect(bodies).not.toContain("HOME NOTE");
  });

  it("no canary is in the database, the ledger or any other file of oceancode's data", () => {
    expect(untrusted.stored.length).toBeGreaterThan(0);
    for (const c of Object.values(CANARIES)) expect(untrusted.stored).not.toContain(c);
  });

  it("each refused import leaves a marker in the block and a warning naming the file", () => {
    const sent = untrusted.requests.map((q) => JSON.stringify(q.body.messages)).join("\n");
    for (const spec of ["~/.pgpass", "~/.my.cnf", "~/.bash_history", "../outside.md", "docs/link.md", "~/notes.md"]) expect(sent).toContain(`[@${spec} not imported: `);
    expect(untrusted.r.stderr).toMatch(/CLAUDE\.md: import @~\/\.pgpass .* not loaded: the repository is not trusted/);
    expect(untrusted.r.stderr).toMatch(/import @docs\/link\.md .* not loaded: a symlink to .*\.pgpass, outside the project/);
    expect(untrusted.r.stderr).toMatch(/import @\.\.\/outside\.md .* not loaded: outside the project/);
  });

  it("oceancode inspect shows the refused imports with their state", () => {
    expect(inspectRows.find((x) => x.id === "docs/inside.md")?.state).toBe("imported by CLAUDE.md");
    const refused = inspectRows.filter((x) => x.state.startsWith("refused ("));
    expect(refused.map((x) => x.id)).toEqual(expect.arrayContaining(["repo:~/.pgpass", "repo:~/.my.cnf", "repo:~/.bash_history", "docs/link.md"]));
  });
});

describe("the same checkout once trusted", () => {
  it("a home import loads (the tier decides, not only the path)", () => {
    expect(trusted.r.code, trusted.r.stderr).toBe(0);
    const sent = trusted.requests.map((q) => JSON.stringify(q.body.messages)).join("\n");
    expect(sent).toContain("HOME NOTE for trusted projects");
    expect(sent).not.toContain("[@~/notes.md not imported");
  });
});
