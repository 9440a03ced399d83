/** The sweep's one line: counts, projects (at most three named), partial removals, size and the oldest day. */
import { describe, expect, it } from "vitest";
import type { ExpiringSession } from "../api.js";
import { day, sweepLine } from "../retention.js";

const at = (daysAgo: number) => Date.now() - daysAgo * 86_400_000;
const gone = (id: string, cwd: string | undefined, daysAgo: number, bytes: number, extra: Partial<ExpiringSession> = {}): ExpiringSession => ({
  id,
  ...(cwd ? { cwd } : {}),
  lastActive: at(daysAgo),
  bytes,
  stores: ["database", "ledger"],
  ...extra,
});

describe("sweepLine", () => {
  it("says nothing when nothing was removed", () => {
    expect(sweepLine([])).toBeUndefined();
  });

  it("names the busiest projects first, at most three, and the rest as a count", () => {
    const line = sweepLine([
      gone("a", "/p/one", 31, 1024),
      gone("b", "/p/two", 40, 1024),
      gone("c", "/p/two", 33, 1024),
      gone("d", "/p/three", 35, 512),
      gone("e", "/p/four", 50, 512),
      gone("f", undefined, 90, 1024 * 1024),
    ]);
    expect(line).toBe(
      `retention: removed 6 idle sessions (2 in /p/two, 1 in (unknown project), 1 in /p/four, 2 more project(s)), freed 1.0 MB, oldest last active ${day(at(90))}` +
        " - oceancode sessions --expiring lists the next ones, oceancode session pin <id> keeps one",
    );
  });

  it("says when only one store's copy went, and never contains 'session: '", () => {
    const line = sweepLine([gone("a", "/p", 40, 10, { stores: ["ledger"], keeps: ["database"] }), gone("b", "/p", 41, 10)])!;
    expect(line).toContain("removed 2 idle sessions (2 in /p; for 1 only the ledger copy, the rest stays under a longer retention), freed 20 B,");
    expect(sweepLine([gone("a", "/p", 40, 10)])).toContain("removed 1 idle session (1 in /p)");
    expect(line).not.toContain("session: ");
  });
});
