/** examples/rules stays true: copied into a sandbox project, `inspect --json` shows what its README says. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-rules-example-");
  fs.cpSync(path.join(REPO_ROOT, "examples", "rules"), sb.project, { recursive: true });
});
afterAll(() => sb.cleanup());

const rows = () => {
  const r = runCli(["inspect", "--json"], { cwd: sb.project, env: sb.env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ kind: string; id: string; state: string }>).filter((x) => x.kind === "instruction").map((x) => `${x.id} | ${x.state}`);
};

it("the example's files, states and import are as documented", () => {
  expect(rows()).toEqual([
    "CLAUDE.md | active",
    "docs/style.md | imported by CLAUDE.md",
    ".claude/rules/python.md | active",
    ".cursor/rules/manual.mdc | left out (alwaysApply: false)",
  ]);
  fs.rmSync(path.join(sb.project, "app.py"));
  expect(rows()).toContain(".claude/rules/python.md | scoped out (no match for **/*.py)");
});
