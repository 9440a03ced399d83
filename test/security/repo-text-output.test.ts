/**
 * Text from a hostile checkout (skill and agent descriptions, hook commands, MCP server commands, file
 * names, a prompt and the model's answer) printed by the list commands with stdout piped to a file, as a
 * user does (`oceancode skill list > out.txt`, `| less -R`, a CI log): no ESC, BEL, C1 or bidi control
 * reaches the output, whether or not it is a terminal. `--json` output stays exact once parsed.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type RunResult, type Sandbox } from "../kit/cli.js";
import { commitCheckout, TERMINAL_ACTIVE } from "./repo-text-fixtures.js";

const ESC = "\u001b";
const BEL = "\u0007";
/** clipboard (OSC 52), window title (OSC 0), 8-bit CSI, a bidi override, a bare CR */
const EVIL = `${ESC}]52;c;cHduZWQ=${BEL}${ESC}]0;PWNED TITLE${BEL}\u009b31m\u202eevil\r`;
const PLAIN = "hostile-marker";

let sb: Sandbox;
const out: Record<string, RunResult> = {};
const cli = (...args: string[]) => runCli(["--dir", sb.project, ...args], { env: sb.env, timeoutMs: 60_000 });

beforeAll(() => {
  sb = makeSandbox("oc-repo-output-");
  sb.write(".claude/skills/evil/SKILL.md", `---\ndescription: "${PLAIN} skill ${EVIL.replace(/\r/, "")}"\n---\nbody\n`);
  sb.write(".claude/agents/evil.md", `---\nname: evil\ndescription: "${PLAIN} agent ${EVIL.replace(/\r/, "")}"\n---\nagent body\n`);
  sb.write(".claude/settings.json", JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo ${PLAIN} ${EVIL}` }] }] } }));
  sb.write(".mcp.json", JSON.stringify({ mcpServers: { evil: { command: "node", args: [`${PLAIN}${EVIL}`] }, [`${PLAIN}${EVIL}`]: { command: "node" } } }));
  sb.write(`.claude/rules/${PLAIN}${ESC}]0;T${BEL}.md`, "a rule\n");
  commitCheckout(sb.project);
  // a session whose prompt and answer (scripted/echo answers "ok: <prompt>") carry the escapes
  const r = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", `${PLAIN} ${EVIL}`], { env: sb.env, timeoutMs: 60_000 });
  expect(r.code, r.stderr).toBe(0);
  out.run = r;
  out.skill = cli("skill", "list");
  out.hooks = cli("hooks", "list");
  out.inspect = cli("inspect");
  out.sessions = cli("sessions");
  out.mcp = cli("mcp", "list");
  out.permissions = cli("permissions", "check", "bash", `echo ${EVIL}`);
  out.skillJson = cli("skill", "list", "--json");
  out.inspectJson = cli("inspect", "--json");
  out.sessionsJson = cli("sessions", "--json");
}, 120_000);

afterAll(() => sb.cleanup());

describe("piped output of the list commands", () => {
  for (const name of ["run", "skill", "hooks", "inspect", "sessions", "mcp", "permissions"]) {
    it(`${name}: no byte a terminal acts on, on stdout or stderr`, () => {
      const r = out[name]!;
      expect(r.code, r.stderr).toBe(0);
      const hit = TERMINAL_ACTIVE.exec(r.stdout) ?? TERMINAL_ACTIVE.exec(r.stderr);
      expect(hit ? `U+${hit[0].charCodeAt(0).toString(16)} at …${JSON.stringify((r.stdout + r.stderr).slice(Math.max(0, (hit.index ?? 0) - 30), (hit.index ?? 0) + 10))}` : undefined).toBeUndefined();
    });
  }

  it("the hostile text is still shown, as visible stand-ins (the user sees what the repo tried)", () => {
    expect(out.skill!.stdout).toContain(`${PLAIN} skill ␛]52;c;cHduZWQ=␇`);
    expect(out.hooks!.stdout).toContain(PLAIN);
    expect(out.hooks!.stdout).toContain("␛]0;PWNED TITLE␇");
    expect(out.inspect!.stdout).toContain(PLAIN);
    expect(out.mcp!.stdout + out.mcp!.stderr).toContain(PLAIN);
    expect(out.sessions!.stdout).toContain(PLAIN);
  });

  it("--json output parses back to the exact strings (JSON escapes, nothing replaced)", () => {
    const skills = JSON.parse(out.skillJson!.stdout) as Array<{ description: string }>;
    expect(skills.find((s) => s.description.includes(PLAIN))?.description).toBe(`${PLAIN} skill ${EVIL.replace(/\r/, "")}`);
    for (const k of ["skillJson", "inspectJson", "sessionsJson"]) {
      expect(TERMINAL_ACTIVE.test(out[k]!.stdout), k).toBe(false);
      expect(() => JSON.parse(out[k]!.stdout), k).not.toThrow();
    }
    const rows = JSON.parse(out.inspectJson!.stdout) as Array<{ source?: string }>;
    expect(rows.some((r) => r.source?.includes(`${PLAIN}${ESC}]0;T${BEL}.md`))).toBe(true);
  });

  it("export stays an exact data format when redirected (its own file, not the terminal)", () => {
    const id = /(ses_\w+)/.exec(out.sessions!.stdout)?.[1];
    expect(id).toBeDefined();
    const file = path.join(sb.project, "..", "export.md");
    const r = cli("export", id!, "--md", "--out", file);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toContain(EVIL.replace(/\r/, ""));
  });
});
