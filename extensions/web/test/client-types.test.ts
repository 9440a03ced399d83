/**
 * The browser code (extensions/web/client) is outside the project's tsc program (it needs the DOM types, the
 * node code must not see them): its own strict type-check, which is what the build's esbuild step skips.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../test/kit/cli.js";

describe("the web client's sources", () => {
  it("type-check (tsc -p extensions/web/client, strict, DOM lib)", () => {
    const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(REPO_ROOT, "extensions", "web", "client", "tsconfig.json")], { encoding: "utf8", timeout: 120_000 });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
