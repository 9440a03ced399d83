/** The pager's skill rows in the `/` popup, and where a `/word` goes (a built-in runs; anything else is a prompt). */
import { describe, expect, it } from "vitest";
import { skillEntries } from "../skill-entries.js";
import { PagerController, type KernelLike } from "../controller.js";
import type { Skill } from "../../../extensions/skills/api.js";
import type { EngineService, Session } from "../../../extensions/engine/api.js";

const skill = (o: Partial<Skill> & { name: string }): Skill => ({
  kind: "skill",
  qualifiedName: o.name,
  id: `user.claude_code:${o.name}`,
  tier: "user",
  ecosystem: "claude",
  file: "/h/SKILL.md",
  dir: "/h",
  description: "d",
  modelInvocable: true,
  userInvocable: true,
  shadowed: false,
  ...o,
});

describe("skillEntries", () => {
  it("lists user-invocable items by the name that runs them, with hint and description; a built-in name wins", () => {
    const items = [
      skill({ name: "review", qualifiedName: "repo:review", argumentHint: "[file]", description: "review it" }),
      skill({ name: "deploy", kind: "command", description: "ship" }),
      skill({ name: "bg", userInvocable: false }),
      skill({ name: "help", description: "a skill named like a built-in" }),
      skill({ name: "lint", plugin: "acme", qualifiedName: "acme:lint", description: "lint" }),
    ];
    expect(skillEntries({ list: () => items }, new Set(["help"]))).toEqual([
      { name: "repo:review", usage: "[file]", summary: "review it", skill: true },
      { name: "deploy", summary: "ship (command)", skill: true },
      { name: "acme:lint", summary: "lint", skill: true },
    ]);
  });

  it("skill text never drives the terminal: escapes and controls are shown, not sent", () => {
    const [e] = skillEntries({ list: () => [skill({ name: "x", description: "evil \x1b]0;title\x07 \x1b[2J text", argumentHint: "\x1b[31m[a]" })] }, new Set());
    expect(e!.summary).not.toMatch(/\x1b|\x07/);
    expect(e!.usage).not.toMatch(/\x1b/);
  });

  it("no skills service, or one that throws: no rows", () => {
    expect(skillEntries(undefined, new Set())).toEqual([]);
    expect(
      skillEntries(
        {
          list: () => {
            throw new Error("boom");
          },
        },
        new Set(),
      ),
    ).toEqual([]);
  });
});

describe("PagerController.slash", () => {
  function make() {
    const ran: string[] = [];
    const prompted: string[] = [];
    const kernel: KernelLike = {
      slashCommands: () => [{ name: "help", summary: "help" }],
      runSlash: async (name) => {
        ran.push(name);
        return name === "help";
      },
    };
    const engine = {
      prompt: async (_s: Session, text: string) => {
        prompted.push(text);
        return { turn: 1, reason: "end_turn", text: "" };
      },
    } as unknown as EngineService;
    const ctl = new PagerController(kernel, engine, { cwd: "/p", model: "scripted/echo" });
    ctl.session = { totals: {} } as unknown as Session;
    return { ctl, ran, prompted };
  }

  it("a built-in runs; a path goes to the session as typed; a /word nothing knows is refused here with a did-you-mean", async () => {
    const { ctl, ran, prompted } = make();
    await ctl.slash("/help");
    await ctl.slash("/review src/a.ts");
    await ctl.slash("/usr/bin/x --help");
    await ctl.slash("/hepl");
    // a plugin-qualified name is the skills extension's to resolve (it warns when nothing matches)
    await ctl.slash("/someplugin:review x");
    expect(ran).toEqual(["help", "review", "hepl", "someplugin:review"]);
    expect(prompted).toEqual(["/usr/bin/x --help", "/someplugin:review x"]);
    const notices = ctl.store.done.view().slice().filter((i) => i.kind === "notice").map((i) => (i as { text: string }).text);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/^unknown command \/review: nothing was sent/);
    expect(notices[1]).toMatch(/^unknown command \/hepl: nothing was sent\. did you mean \/help\?/);
  });
});
