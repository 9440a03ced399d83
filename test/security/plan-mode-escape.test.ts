/**
 * Plan mode's one writable place, attacked through real `oceancode run --agent plan --auto` sessions under
 * bypassPermissions (nothing else would stop a write): a `..` out of .oceancode/plans/, an absolute path,
 * a symlink file in the plans folder pointing outside, a symlinked folder inside it, a dangling symlink,
 * and `.oceancode/plans` itself a symlink out of the project are all refused and write nothing; an edit
 * through a symlink is refused too. A plain plan file still writes.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../kit/cli.js";
import { call, runPlan } from "../../extensions/plan-mode/test/helpers.js";

let sb: Sandbox | undefined;
let outside: string | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
  if (outside) fs.rmSync(outside, { recursive: true, force: true });
  outside = undefined;
});

const REFUSED = /^Permission denied by plan-mode: plan mode: editing is off/;

function setup(): { sb: Sandbox; out: string; plans: string } {
  const s = makeSandbox("oc-plan-esc-");
  s.write(".config/oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }), "home");
  const out = fs.mkdtempSync(path.join(path.dirname(s.project), "outside-"));
  fs.writeFileSync(path.join(out, "victim.txt"), "keep me\n");
  return { sb: s, out, plans: path.join(s.project, ".oceancode", "plans") };
}

describe("plan mode: no way out of .oceancode/plans/", () => {
  it("refuses .., absolute paths, symlinks (file, folder, dangling) and an edit through a symlink; a plain plan writes", () => {
    const s = setup();
    sb = s.sb;
    outside = s.out;
    fs.mkdirSync(s.plans, { recursive: true });
    fs.symlinkSync(path.join(s.out, "victim.txt"), path.join(s.plans, "link.md"));
    fs.symlinkSync(s.out, path.join(s.plans, "dir"));
    fs.symlinkSync(path.join(s.out, "nothing-yet.md"), path.join(s.plans, "dangling.md"));
    const steps = [
      call("write", { file_path: ".oceancode/plans/../../escaped.txt", content: "pwned" }),
      call("write", { file_path: ".oceancode/plans/../../../escaped.txt", content: "pwned" }),
      call("write", { file_path: path.join(s.out, "abs.txt"), content: "pwned" }),
      call("read", { file_path: ".oceancode/plans/link.md" }),
      call("write", { file_path: ".oceancode/plans/link.md", content: "pwned" }),
      call("edit", { file_path: ".oceancode/plans/link.md", old_string: "keep", new_string: "pwned" }),
      call("write", { file_path: ".oceancode/plans/dir/new.md", content: "pwned" }),
      call("write", { file_path: ".oceancode/plans/dangling.md", content: "pwned" }),
      call("write", { file_path: ".oceancode/plans/ok.md", content: "# plan\n" }),
      { text: "done" },
    ];
    const r = runPlan(sb, steps, ["--auto", "--agent", "plan"]);
    expect(r.code, r.stderr).toBe(0);
    const [up2, up3, abs, read, link, edit, dir, dangling, ok] = r.results;
    for (const [res, why] of [
      [up2, "outside .oceancode/plans/"],
      [up3, "outside .oceancode/plans/"],
      [abs, "outside .oceancode/plans/"],
      [link, "(a symlink)"],
      [edit, "(a symlink)"],
      [dir, "(a symlink)"],
      [dangling, "dangling symlink"],
    ] as const) {
      expect(res!.isError, res!.content).toBe(true);
      expect(res!.content).toMatch(REFUSED);
      expect(res!.content).toContain(why);
    }
    // reading through the link reads a file outside the project: a guard ask, which --auto rejects
    expect(read!.isError).toBe(true);
    expect(read!.content).toMatch(/outside the project/);
    expect(ok!.isError, ok!.content).toBe(false);
    expect(fs.readFileSync(path.join(s.out, "victim.txt"), "utf8")).toBe("keep me\n");
    expect(fs.readdirSync(s.out).sort()).toEqual(["victim.txt"]);
    expect(fs.existsSync(path.join(sb.project, "escaped.txt"))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(sb.project), "escaped.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(s.plans, "ok.md"), "utf8")).toBe("# plan\n");
  });

  it("refuses writes when .oceancode/plans itself is a symlink out of the project", () => {
    const s = setup();
    sb = s.sb;
    outside = s.out;
    fs.mkdirSync(path.dirname(s.plans), { recursive: true });
    fs.symlinkSync(s.out, s.plans);
    const r = runPlan(sb, [call("write", { file_path: ".oceancode/plans/p.md", content: "pwned" }), { text: "done" }], ["--auto", "--agent", "plan"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results[0]!.content).toMatch(REFUSED);
    expect(r.results[0]!.content).toContain("(a symlink)");
    expect(fs.readdirSync(s.out)).toEqual(["victim.txt"]);
  });
});
