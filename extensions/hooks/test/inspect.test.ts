/** `oceancode inspect` lists every hook source with loaded or held beside it (the files are only read). */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

interface Row {
  kind: string;
  id: string;
  layer: string;
  state?: string;
  reason?: string;
}

describe("inspect and hook sources", () => {
  it("shows a repo-tier settings file held until the repo is trusted, and a user file loaded", () => {
    sb = makeSandbox();
    const marker = path.join(sb.home, "ran");
    const repoFile = sb.write(".claude/settings.json", JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: `touch ${marker}` }, { type: "prompt", prompt: "x" }] }] } }));
    const userFile = sb.write(".claude/settings.json", JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `touch ${marker}` }] }] } }), "home");
    const rows = () => {
      const r = runCli(["--dir", sb.project, "inspect", "--json"], { env: sb.env });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Row[]).filter((x) => x.kind === "hooks");
    };
    const before = rows();
    expect(before).toContainEqual(expect.objectContaining({ id: repoFile, layer: "repo", state: "held: untrusted", reason: "skipped: 1 unsupported handlers" }));
    expect(before).toContainEqual(expect.objectContaining({ id: userFile, layer: "user", state: "loaded" }));
    expect(runCli(["--dir", sb.project, "trust", "repo", "on"], { env: sb.env }).code).toBe(0);
    expect(rows()).toContainEqual(expect.objectContaining({ id: repoFile, state: "loaded" }));
    // listing ran no handler
    expect(fs.existsSync(marker)).toBe(false);
  });
});
