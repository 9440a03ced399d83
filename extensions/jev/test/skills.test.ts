/**
 * Point 6 (skills) on a real kernel with six project skills: shadow asks every prompt and changes nothing;
 * act lists only the picked skills in <available_skills> (at most 3 on a coding prompt, every skill over
 * the 0.02 floor on a skill prompt), sticky like point 5; an unavailable endpoint keeps the full listing.
 */
import { describe, expect, it } from "vitest";
import type { FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { installSkills, skillsPolicy } from "../points/skills.js";
import { STICKY_REASON } from "../points/advise.js";
import { comparable, testJev, type Booted, jevTests, rankedAnswer } from "./points-helpers.js";

let b: Booted | undefined;
let fake: FakeSystemOne | undefined;
const { bootPoints, startFakeSystemOne } = jevTests();

const SKILLS = ["tdd", "release-notes", "changelog", "db-migrations", "perf-bench", "pdf-forms"];
const FILES = Object.fromEntries(SKILLS.map((n) => [`.oceancode/skills/${n}/SKILL.md`, `---\ndescription: the ${n} procedure\n---\nDo ${n}.\n`]));

const P1 = "write the release notes and the changelog entry for version two";
const P2 = "shorter release notes please, and the changelog again";
const P3 = "benchmark the database migrations under heavy load";

const answerBy = (noul: number) =>
  rankedAnswer({ gate: "needs_skill", question: "skills", top: 0.4, step: 0.1, noul, prefer: (prompt) => (prompt.includes("benchmark") ? ["perf-bench", "db-migrations", "tdd", "changelog"] : ["release-notes", "changelog", "tdd", "pdf-forms"]) });

async function setup(noul = 0.2) {
  fake = await startFakeSystemOne();
  fake.answer(answerBy(noul));
  b = await bootPoints([], { files: FILES });
  const jev = testJev({ url: fake.url });
  installSkills(b.ctx, jev);
  return jev;
}
const newSession = () => b!.engine.createSession({ cwd: b!.sb.project, model: "scripted/script.json" });
const listingOf = (i: number): string => b!.requests[i]!.system.find((s) => s.startsWith("<available_skills>")) ?? "";
const listed = (i: number): string[] => [...listingOf(i).matchAll(/^- ([\w-]+):/gm)].map((m) => m[1]!);

describe("jev point 6: skills", () => {
  it("shadow: every prompt is asked, the requests are identical to the layer off, no sticky row", async () => {
    const jev = await setup();
    const off = await newSession();
    for (const p of [P1, P2, P3]) await b!.engine.prompt(off, p);
    expect(listed(0).sort()).toEqual([...SKILLS].sort());
    jev.modes.skills = "shadow";
    const sh = await newSession();
    for (const p of [P1, P2, P3]) await b!.engine.prompt(sh, p);
    await jev.idle(3);
    expect(comparable(b!.requests.slice(3), b!.sb).replaceAll(sh.info.id, "S")).toBe(comparable(b!.requests.slice(0, 3), b!.sb).replaceAll(off.info.id, "S"));
    expect(fake!.count).toBe(3);
    expect(jev.rows.map((r) => [r.point, r.mode, r.outcome])).toEqual(Array(3).fill(["skills", "shadow", "shadow"]));
    expect(jev.rows[0]).toMatchObject({ verdict: "coding;skills:release-notes,changelog,tdd", baseline: "all" });
  });

  it("act: a coding prompt lists at most 3; a prompt sharing vocabulary reuses them (one sticky row, no request); a new one grows the set", async () => {
    const jev = await setup();
    jev.modes.skills = "act";
    const s = await newSession();
    await b!.engine.prompt(s, P1);
    expect(listed(0).sort()).toEqual(["changelog", "release-notes", "tdd"]);
    expect(jev.rows[0]).toMatchObject({ point: "skills", mode: "act", outcome: "acted", verdict: "coding;skills:release-notes,changelog,tdd" });
    await b!.engine.prompt(s, P2);
    expect(fake!.count).toBe(1);
    expect(listingOf(1)).toBe(listingOf(0));
    expect(jev.rows[1]).toMatchObject({ point: "skills", outcome: "acted", verdict: "sticky", answers: STICKY_REASON });
    await b!.engine.prompt(s, P3);
    expect(fake!.count).toBe(2);
    expect(listed(2).sort()).toEqual(["changelog", "db-migrations", "perf-bench", "release-notes", "tdd"]);
  });

  it("act: a skill prompt lists every skill over the 0.02 floor (no cap)", async () => {
    const jev = await setup(0.7);
    jev.modes.skills = "act";
    const s = await newSession();
    await b!.engine.prompt(s, P1);
    expect(listed(0).sort()).toEqual(["changelog", "pdf-forms", "release-notes", "tdd"]);
    expect(jev.rows[0]!.verdict).toBe("skill;skills:release-notes,changelog,tdd,pdf-forms");
  });

  it("act with the endpoint unavailable: the full listing, an unavailable row", async () => {
    const jev = await setup();
    fake!.respond(() => ({ type: "error", status: 429 }));
    jev.modes.skills = "act";
    const s = await newSession();
    await b!.engine.prompt(s, P1);
    expect(listed(0).sort()).toEqual([...SKILLS].sort());
    expect(jev.rows[0]).toMatchObject({ outcome: "unavailable", verdict: "all" });
  });

  it("the policy: the floor, and the cap of 3 only on coding prompts", () => {
    const probs = { "a: x": 0.5, "b: x": 0.2, "c: x": 0.1, "d: x": 0.05, "e: x": 0.019 };
    const ans = (noul: number) => ({ needs_skill: { type: "noul" as const, noul }, skills: { type: "choice" as const, choice: "a: x", confidence: 0.5, probabilities: probs } });
    expect(skillsPolicy(ans(0.3))).toEqual({ verdict: "coding;skills:a,b,c", value: ["a", "b", "c"] });
    expect(skillsPolicy(ans(0.5))).toEqual({ verdict: "skill;skills:a,b,c,d", value: ["a", "b", "c", "d"] });
  });
});

