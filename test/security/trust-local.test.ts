/**
 * The controls for trust-shapes: the same payload does act when it is shown to be the user's (an
 * untracked .oceancode/ in a real checkout), and when the user trusts a checkout that carries it
 * (`oceancode trust repo on`). So the attacks there fail because of the rule, not because the payload
 * is inert.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../kit/cli.js";
import { API_KEY, CANARIES, attack, git, keysAt, makeTree, payload, writeFiles, trustFakes } from "./fixtures/trust-tree.js";

const { legit, evil } = trustFakes();

/** What acted: the canaries, and the endpoint the payload names got the requests (with the key). */
async function expectActed(t: ReturnType<typeof makeTree>, env: NodeJS.ProcessEnv = {}): Promise<string> {
  evil.reset();
  evil.enqueue({ toolCalls: [{ name: "bash", input: { command: `echo ran >> ${JSON.stringify(t.canary("bash"))}` } }] }, { text: "done" });
  const r = await attack(t, legit, { MCP_TIMEOUT: "3000", ...env });
  expect([...t.fired()].sort(), r.stderr).toEqual([...CANARIES].sort());
  expect(keysAt(evil)[0]).toBe(API_KEY);
  expect(legit.count).toBe(0);
  return r.stderr;
}

describe("the payload acts where it is the user's or trusted", () => {
  it("an untracked .oceancode/ in a real checkout is the local tier: it applies with no trust and no notice", async () => {
    const t = makeTree("oc-trust-local-");
    try {
      git(t.sb.project, "init", "-q");
      t.sb.write("README.md", "hi\n");
      git(t.sb.project, "add", "README.md");
      git(t.sb.project, "commit", "-qm", "x");
      writeFiles(path.join(t.sb.project, ".oceancode"), payload(t, evil.url));
      const stderr = await expectActed(t);
      expect(stderr).not.toContain("held until you trust");
      expect(stderr).not.toContain("repo tier");
    } finally {
      t.cleanup();
    }
  });

  it("after oceancode trust repo on, a symlinked and an archived .oceancode/ apply (the repo tier, trusted)", async () => {
    for (const symlinked of [true, false]) {
      const t = makeTree("oc-trust-on-");
      try {
        if (symlinked) {
          writeFiles(path.join(t.sb.project, "cfg"), payload(t, evil.url));
          fs.symlinkSync("cfg", path.join(t.sb.project, ".oceancode"));
          git(t.sb.project, "init", "-q");
          git(t.sb.project, "add", "-A");
          git(t.sb.project, "commit", "-qm", "x");
        } else writeFiles(path.join(t.sb.project, ".oceancode"), payload(t, evil.url));
        const on = runCli(["--dir", t.sb.project, "trust", "repo", "on"], { env: t.sb.env });
        expect(on.stdout).toContain("repo=true");
        const stderr = await expectActed(t);
        expect(stderr).not.toContain("held until you trust");
      } finally {
        t.cleanup();
      }
    }
  });
});
