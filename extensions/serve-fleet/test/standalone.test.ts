/**
 * Without PostgreSQL there is no fleet, and nothing says otherwise: serve-fleet activates only as a server
 * starts and stands aside quietly for the bundled SQLite store; a `run` never loads it.
 */
import { describe, expect, it } from "vitest";
import { oc } from "../../../test/sdk/helpers.js";
import type { Served } from "../../serve/test/serve-helpers.js";
import { serveTests } from "../../serve/test/serve-tests.js";

const { sb, startServe } = serveTests("oc-fleet-alone-");
let served: Served | undefined;

describe("serve-fleet with the bundled SQLite store", () => {
  it("a run's stderr is only its session line; serve runs alone without a word about a fleet and /health still names the instance", async () => {
    const r = oc(sb, ["run", "--model", "scripted/echo", "hello"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim()).toMatch(/^session: ses_\S+$/);
    served = await startServe(["--directory", sb.project], { env: { ...sb.env, OC_INSTANCE_ID: "solo" } });
    const id = (await served.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body.id;
    expect((await served.api<{ instance: string; claims: string[] }>("GET", "/health")).body).toMatchObject({ instance: "solo", claims: [id] });
    expect(served.stderr()).not.toMatch(/OC_ERR|serve-fleet|fleet/i);
  }, 60_000);
});
