/** The pager's --listen starts the serve server in its own process, behind the same guard. */
import { describe, expect, it } from "vitest";
import { CLI } from "../../../test/kit/cli.js";
import { SseReader, turnEndOf } from "./serve-helpers.js";
import { pause } from "../../../test/kit/pty.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, startPty } = pagerTests();

describe("oceancode --listen (the pager)", () => {
  it("serves the HTTP API from the pager's process: health, a session prompted over HTTP to turn_end", async () => {
    const sb = makeSandbox("oc-serve-pager-");
    const t = startPty({ args: [CLI, "--dir", sb.project, "--listen", "127.0.0.1:0"], env: { ...sb.env, OC_MODEL: "scripted/echo" }, cwd: sb.project });
    const screen = await t.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+/);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(screen)![1]!;
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const { id } = (await (await fetch(`${url}/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "scripted/echo" }) })).json()) as { id: string };
    const sse = await SseReader.open(`${url}/session/${id}/event`);
    await fetch(`${url}/session/${id}/prompt`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "from http" }) });
    expect((await sse.waitFor(turnEndOf(id))).data.text).toBe("ok: from http");
    sse.close();
    // a session extension's route (tideline's) is there too: serve activated before the session's extensions
    expect((await fetch(`${url}/session/${id}/tideline`)).status).toBe(200);
    t.send("/exit");
    await pause(120);
    t.key("Enter");
    for (let i = 0; i < 100 && t.alive(); i++) await pause(50);
    expect(t.exitStatus()).toBe(0);
  });

  it("a non-loopback --listen without OC_SERVER_PASSWORD refuses to start (exit 1, the reason on screen)", async () => {
    const sb = makeSandbox("oc-serve-pager-");
    const t = startPty({ args: [CLI, "--dir", sb.project, "--listen", "0.0.0.0:0"], env: { ...sb.env, OC_MODEL: "scripted/echo" }, cwd: sb.project });
    for (let i = 0; i < 200 && t.alive(); i++) await pause(50);
    expect(t.exitStatus()).toBe(1);
    expect(t.screen()).toContain("refusing to listen on 0.0.0.0 without a password");
  });
});
