/** The pager's spend meter follows a cache keep-alive touch: the totals a session.cache.touched event carries. */
import { describe, expect, it } from "vitest";
import { PagerStore } from "../../../hosts/pager/store.js";
import { type SessionEvent } from "../../engine/api.js";
import { emptyUsage } from "../../engine/kit.js";

describe("pager store and session.cache.touched", () => {
  it("takes the event's totals (the touch's cost included)", () => {
    const s = new PagerStore();
    s.sessionId = "s1";
    const totals = { usage: { ...emptyUsage(), cacheReadTokens: 5000 }, costUsd: 0.0123, turns: 1, steps: 2 };
    s.apply({ type: "session.cache.touched", sessionId: "s1", touch: 1, usage: { ...emptyUsage(), cacheReadTokens: 5000 }, costUsd: 0.0015, totals } as SessionEvent);
    expect(s.totals).toEqual(totals);
  });
});
