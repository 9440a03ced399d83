/** examples/serve/client.mjs against a real server: the documented client works as written. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../test/kit/cli.js";
import { spawn } from "node:child_process";
import type { Served } from "./serve-helpers.js";
import { serveTests } from "./serve-tests.js";

const { sb, startServe } = serveTests("oc-serve-ex-");
let srv: Served | undefined;

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
