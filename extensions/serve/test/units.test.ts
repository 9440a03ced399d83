/** The serve extension's small parts on their own: the guard, basic auth, --listen parsing, the question park, the event ring, the registry. */
import { describe, expect, it } from "vitest";
import { basicAuth, checkBind, foreignRequest, isLoopback } from "../auth.js";
import { type RouteDefinition } from "../api.js";
import { parseListen } from "../kit.js";
import { EventHub } from "../events.js";
import { Questions } from "../questions.js";
import { Routes } from "../registry.js";

const b64 = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("serve parts", () => {
  it("foreign requests (no password): only loopback Host and Origin names pass", () => {
    expect(foreignRequest({ host: "127.0.0.1:4096" })).toBeUndefined();
    expect(foreignRequest({ host: "localhost:4096", origin: "http://127.0.0.1:3000" })).toBeUndefined();
    expect(foreignRequest({ host: "[::1]:4096" })).toBeUndefined();
    expect(foreignRequest({})).toBeUndefined();
    expect(foreignRequest({ host: "attacker.test:4096" })).toMatch(/^Host 'attacker\.test:4096' is not/);
    expect(foreignRequest({ host: "127.0.0.1.attacker.test" })).toMatch(/Host/);
    expect(foreignRequest({ host: "127.0.0.1:4096", origin: "https://attacker.test" })).toMatch(/web page https:\/\/attacker\.test/);
    expect(foreignRequest({ host: "127.0.0.1:4096", origin: "null" })).toMatch(/opaque origin/);
  });

  it("loopback is 127/8, ::1 and localhost; anything else needs a password", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"]) expect(isLoopback(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "example.com"]) expect(isLoopback(h), h).toBe(false);
    expect(() => checkBind("0.0.0.0", undefined)).toThrow(/refusing to listen on 0.0.0.0 without a password/);
    expect(() => checkBind("0.0.0.0", { username: "u", password: "p" })).not.toThrow();
    expect(() => checkBind("127.0.0.1", undefined)).not.toThrow();
  });

  it("basic auth accepts only the exact user and password; without credentials everything passes", () => {
    const ok = basicAuth({ username: "oceancode", password: "p:w" });
    expect(ok(b64("oceancode:p:w"))).toBe(true); // a colon in the password is kept
    expect(ok(b64("oceancode:p:"))).toBe(false);
    expect(ok(b64("Oceancode:p:w"))).toBe(false);
    expect(ok(b64("oceancodep:w"))).toBe(false);
    expect(ok(undefined)).toBe(false);
    expect(ok("Bearer p:w")).toBe(false);
    expect(basicAuth(undefined)(undefined)).toBe(true);
  });

  it("--listen takes host:port, [v6]:port, :port and port", () => {
    expect(parseListen("127.0.0.1:4096")).toEqual({ host: "127.0.0.1", port: 4096 });
    expect(parseListen("[::1]:80")).toEqual({ host: "::1", port: 80 });
    expect(parseListen(":0")).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseListen("4096")).toEqual({ host: "127.0.0.1", port: 4096 });
    expect(parseListen("0.0.0.0:1")).toEqual({ host: "0.0.0.0", port: 1 });
    for (const bad of ["host", "1.2.3.4:99999", "a:b", ""]) expect(() => parseListen(bad), bad).toThrow(/is not <host:port>/);
  });

  it("a question a person must approve (autoApprove false) is answered over HTTP like any other; abort rejects what is pending", async () => {
    const seen: string[] = [];
    const qs = new Questions({ asked: (p) => seen.push(`asked ${p.id}`), settled: (p, a) => seen.push(`settled ${p.id} ${a}`) });
    const ac = new AbortController();
    const a = qs.ask({ sessionId: "s1", tool: "bash", subject: "rm -rf ~", reason: "guard", autoApprove: false }, ac.signal);
    expect(qs.list("s1").map((p) => p.question.autoApprove)).toEqual([false]);
    expect(qs.answer("s2", "q1", "once")).toBe(false); // another session's id
    expect(qs.answer("s1", "q1", "once")).toBe(true);
    expect(await a).toBe("once");
    const b = qs.ask({ sessionId: "s1", tool: "bash", subject: "x", reason: "r" }, ac.signal);
    ac.abort();
    expect(await b).toMatchObject({ answer: "reject", by: "oceancode serve" });
    const c = qs.ask({ sessionId: "s1", tool: "bash", subject: "y", reason: "r" }, new AbortController().signal);
    qs.answer("s1", "q3", "reject", "not here");
    expect(await c).toEqual({ answer: "reject", by: "the user (over HTTP)", reason: "not here" });
    expect(seen).toEqual(["asked q1", "settled q1 once", "asked q2", "settled q2 reject", "asked q3", "settled q3 reject"]);
    expect(qs.list("s1")).toEqual([]);
  });

  it("the ring keeps the last N events: since() replays after an id, per session, and says when some were lost", () => {
    const hub = new EventHub({ ringSize: 5, heartbeatMs: 60_000 });
    for (let i = 0; i < 8; i++) hub.publish(i % 2 ? "b" : "a", "e", { i });
    expect(hub.lastId).toBe(8);
    expect(hub.since(5).events.map((e) => e.id)).toEqual([6, 7, 8]);
    expect(hub.since(5, "a").events.map((e) => e.id)).toEqual([7]);
    expect(hub.since(5).lost).toBe(false);
    const old = hub.since(1);
    expect(old.lost).toBe(true);
    expect(old.events.map((e) => e.id)).toEqual([4, 5, 6, 7, 8]);
    expect(hub.since(8).events).toEqual([]);
    hub.closeAll();
  });

  it("the registry refuses a duplicate path (any parameter names) or operationId", () => {
    const r = new Routes();
    const route = (url: string, operationId: string): RouteDefinition => ({ method: "GET", url, operationId, summary: "s", handler: () => ({}) });
    r.add(route("/x/:id", "xGet"), "one");
    expect(() => r.add(route("/x/:sessionId", "xOther"), "two")).toThrow(/already added by one/);
    expect(() => r.add(route("/y", "xGet"), "two")).toThrow(/operationId 'xGet' is already used by one/);
    expect(() => r.add(route("y", "yGet"), "two")).toThrow(/must start with \//);
    r.add({ ...route("/x/:id", "xPost"), method: "POST" }, "two");
    expect(r.list().map((x) => `${x.method} ${x.url} ${x.owner}`)).toEqual(["GET /x/:id one", "POST /x/:id two"]);
  });
});
