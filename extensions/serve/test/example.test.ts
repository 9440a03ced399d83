/** examples/serve/client.mjs against a real server: the documented client works as written. */
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, type Sandbox } from "../../../test/kit/cli.js";
import { spawn } from "node:child_process";
import { startServe, type Served } from "./serve-helpers.js";

let sb: Sandbox;
let srv: Served | undefined;
beforeEach(() => {
  sb = makeSandbox("oc-serve-ex-");
});
afterEach(async () => {
  await srv?.stop("SIGKILL");
  srv = undefined;
  sb.cleanup();
});

describe("examples/serve/client.mjs", () => {
  it("prompts a session and prints the streamed answer and the stored row count", async () => {
    srv = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_SERVER_PASSWORD: "pw" } });
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "examples", "serve", "client.mjs"), "hi", "there"], {
      env: { ...sb.env, OC_URL: srv.url, OC_MODEL: "scripted/echo", OC_SERVER_PASSWORD: "pw" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    expect(code, err).toBe(0);
    expect(out).toBe("ok: hi there");
    expect(err).toContain("[end_turn]");
    expect(err).toContain("2 rows stored");
  });
});
