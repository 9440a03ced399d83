/**
 * Issue 27, items 4-6, as verdicts: a wide table of attack shapes through the permission decision the
 * CLI makes (`permissions check` calls this decide() with the real shell guard), then a sample through
 * the compiled CLI's `permissions check --json`. Checked, never executed: the effects are in
 * guard-attacks-effects.test.ts. Each shape carries the class it attacks.
 */
import { describe, expect, it, afterAll } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decide } from "../../extensions/permissions/decide.js";
import { classifyCommand } from "../../extensions/shell-guard/classify.js";
import type { ShellGuardService } from "../../extensions/shell-guard/api.js";
import { BASE_RULE, type Rule } from "../../extensions/permissions/rules.js";
import type { Mode } from "../../extensions/permissions/modes.js";
import type { PermissionDecision } from "../../extensions/permissions/api.js";
import { makeSandbox, runCliAsync } from "../kit/cli.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-attack-v-"));
const home = path.join(root, "home");
const project = path.join(root, "project");
fs.mkdirSync(home);
fs.mkdirSync(project);
// a checkout's symlink to the home directory: the file tools must see where it really points
fs.symlinkSync(home, path.join(project, "homelink"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const guard: ShellGuardService = { classify: (c, o) => classifyCommand(c, { home, project, cwd: project, ...o }) };
const rule = (text: string): Rule => {
  const [tool, ...rest] = text.split(" ");
  const action = rest.pop() as Rule["action"];
  return { tool: tool!, pattern: rest.join(" "), action, text, layer: "global" };
};
const check = (tool: string, subject: string, rules: string[], mode: Mode = "default"): Promise<PermissionDecision> =>
  decide({ tool, subject, cwd: project, project, home, mode, rules: [BASE_RULE, ...rules.map(rule)], guard });
const show = (d: PermissionDecision): string => `${d.action} [${d.layer}] ${d.reason}`;

/** Exec / write / pager forms of "read-only" commands: off the safe list, so the user's `bash * ask` asks. */
const OFF_SAFE_LIST = [
  "sed -n '1e touch /tmp/x' README.md", "sed 's/a/b/e' README.md", "sed 's/a/b/w out.txt' README.md", "sed -n 'w out.txt' README.md",
  "sed '1r /etc/passwd' README.md", "sed -f script.sed README.md", "sed --expression='1e id' README.md", "sed -ne '$W x' f",
  "awk 'BEGIN{system(\"id\")}'", "awk '{print > \"out\"}' f", "awk '{print | \"sh\"}' f", "awk 'BEGIN{\"id\" | getline x}'", "awk -f prog.awk f",
  "find . -exec id ;", "find . -execdir id +", "find . -ok rm {} ;", "find . -delete", "find . -fprint out", "find . -fprintf out %p", "find . -fls out",
  "git -c core.pager='sh -c id' log", "git --config-env=core.pager=X log", "git --exec-path=/tmp status", "git grep -O'sh -c id' foo",
  "git grep --open-files-in-pager=id foo", "git log --output=/tmp/x", "git diff --ext-diff", "git log -p --textconv", "git show --show-signature",
  "GIT_EXTERNAL_DIFF=./x.sh git diff", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=id git log", "GIT_PAGER=id git log",
  "export GIT_DIR=/tmp/evil; git status", "export GIT_EXTERNAL_DIFF=./x; git diff", "set -a; PAGER=id; git log", "declare -x GIT_SSH_COMMAND=id; git status",
  "PATH=/tmp/evil:$PATH ls", "LD_PRELOAD=/tmp/x.so cat README.md", "BASH_ENV=/tmp/x bash -c ls", "LESSOPEN='|id %s' less README.md",
  "less README.md", "more README.md", "man ls", "rg --pre ./x foo", "rg --pre-glob '*' --pre ./x foo", "fd -x id", "fd --exec-batch id",
  "sort -o out f", "sort --output=out f", "sort --compress-program=sh f", "sort --comp=sh f", "tree -o out", "uniq a b", "date -s 2020-01-01",
  "xargs cat", "env cat README.md", "sudo cat README.md", "doas ls", "ls --unknown-flag", "cat --weird", "head --dangerous=1 f",
  "cat $(echo README.md)", "ls $DIR", "git branch -D main", "git tag v1", "git remote add o u", "git config user.name x", "git stash",
  "git worktree add x", "git frobnicate",
];
/** Still read-only: the safe list lets them through under `bash * ask`. */
const STILL_SAFE = [
  "git status", "git log --oneline -5", "git diff --stat HEAD~1", "git show HEAD --name-only", "git branch -a", "git tag -l", "git remote -v",
  "ls -la", "cat README.md", "head -n 5 README.md", "tail -20 README.md", "grep -rn foo src", "rg -n foo src", "find . -name '*.ts' -type f",
  "sed -n 1,5p README.md", "sed 's/a/b/g' README.md", "awk '{print $1}' README.md", "wc -l README.md", "sort -u README.md", "LANG=C ls",
  "LC_ALL=C sort f", "TZ=UTC date", "NO_COLOR=1 git log", "nice -n 5 git status", "timeout 5 ls", "echo $(date)", "jq .name package.json",
  "git log --format='%h %s' -n 3", "diff -u a b", "stat -c %s f", "du -sh src", "env",
];
/** The floor: denied with `bash * allow`, in bypassPermissions too. Never executed anywhere. */
const FLOOR = [
  "rm -rf /*/", "rm -rf /*", "rm -rf /{etc,usr}", "rm -rf /{bin,sbin}/", "rm -rf /u*", "rm -rf /e?c", "cd / && rm -rf */", "cd / && rm -rf *",
  "cd /; rm -rf -- *", "X=/; rm -rf $X*", "HOME=/; rm -rf ~", "HOME=/ bash -c 'rm -rf ~'", "rm -rf /etc/", "rm -rf /usr", "rm -rf /usr/.",
  "rm -rf /home", "rm -f /etc/*", "chmod -R 777 /*", "chown -R nobody /{etc,var}", "mv /etc /tmp/etc", "mv /usr/ /tmp/u", "rsync -a --delete empty/ /",
  "rsync -a --delete empty/ /usr/", "tar -xf a.tar -C /", "tar xzf a.tgz --directory=/etc", "unzip a.zip -d /", "truncate -s0 /etc/*",
  "bash -c 'rm -rf /*/'", "sh -c \"cd / && rm -rf */\"", "eval 'rm -rf /{etc,usr}'", "bash <<< 'rm -rf /*'", "env -S 'rm -rf /*'",
  "alias x='rm -rf /*'; x", "f() { rm -rf /*/; }; f", "cp -a payload/. /etc", "xargs mv /etc /tmp/e",
];
/** The guard's asks: never approved by --auto (autoApprove false), whatever the rules and mode allow. */
const GUARD = [
  "rm -rf ~", "rm -rf ~/", "rm -rf ~/*", "rm -rf ~/.*", "rm -rf $HOME", "rm -rf \"$HOME\"/*", "rm -rf ~/..", "cd ~ && rm -rf .", "cd ~ && rm -rf *",
  "cd && rm -rf ./*", "cd $UNKNOWN && rm -rf *", "rm ~/*", "env --split-string='rm -rf ~'", "env -S'rm -rf ~'", "env -iS 'rm -rf ~'",
  "alias x='rm -rf ~'; x", "alias nuke='rm -rf'; nuke ~", "find ~ | xargs rm", "find ~ -type f | xargs rm -f", "echo ~ | xargs rm -rf",
  "ls ~ | xargs rm -r", "find . | xargs mv -t /tmp", "rsync -a --delete empty/ ~/", "rsync -a --delete-after empty/ ~", "rsync -a --remove-source-files ~/ /tmp/x",
  "mv ~ /tmp/x", "mv ~/ ../gone", "mv -t /tmp ~", "mv ~/* /tmp/", ": > ~/.bashrc", "> ~/.profile", "echo x > ~/.gitconfig", "truncate -s 0 ~/.bashrc",
  "truncate -s0 ~/*", "cp /dev/null ~/.zshrc", "tar -xf a.tar -C ~", "tar xf a.tar -C $HOME", "cd ~ && tar xf /tmp/a.tar", "tar -xPf a.tar",
  "unzip a.zip -d ~", "bash -c \"rm -rf ~\"", "sh -c 'rm -rf ~'", "eval 'rm -rf ~'", "bash <<< 'rm -rf ~'", "sh <<EOF\nrm -rf ~\nEOF", "chmod -R 000 ~/*",
  "awk 'BEGIN{system(\"rm -rf ~\")}'", "cp -a evil/. ~", "rsync -a evil/ ~/", "cp -r evil/* ~", "rsync -av ./ ~",
];
/** Secret reads through any reader, git and /proc included. */
const SECRET = [
  "git show :.env", "git show HEAD:.env", "git show :0:.env.local", "git diff --no-index /dev/null .env", "git cat-file -p HEAD:.env",
  "git log -p -- .env", "git blame .env", "git grep KEY -- .env", "git archive HEAD .env", "cat /proc/$PPID/environ", "cat /proc/self/environ",
  "tr '\\0' '\\n' < /proc/1/environ", "strings /proc/*/environ", "cat /proc/self/cmdline", "xxd /proc/$$/mem", "cat /proc/self/fd/3", "grep KEY /proc/$PPID/environ",
  "cat /dev/fd/5", "grep -r PRIVATE ~", "rg -uu TOKEN /", "tar czf /tmp/h.tgz ~", "cp -a ~ /tmp/x", "grep -r KEY /proc",
];

describe("item 4: the safe list is an allow-list of forms", () => {
  it("takes every exec, write, pager, environment and unknown-flag form off it (the user's bash * ask asks)", async () => {
    const wrong: string[] = [];
    for (const c of OFF_SAFE_LIST) {
      const d = await check("bash", c, ["bash * ask"]);
      if (d.action !== "ask" || d.layer === "safe-list") wrong.push(`${c}: ${show(d)}`);
    }
    expect(OFF_SAFE_LIST.length).toBeGreaterThan(60);
    expect(wrong).toEqual([]);
  });

  it("keeps the plain read-only forms on it", async () => {
    const wrong: string[] = [];
    for (const c of STILL_SAFE) {
      const d = await check("bash", c, ["bash * ask"]);
      if (d.action !== "allow") wrong.push(`${c}: ${show(d)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("says why a form is off", async () => {
    const reason = async (c: string): Promise<string> => (await check("bash", c, ["bash * ask"])).segments!.map((s) => s.guard.reason).join(" | ");
    expect(await reason("sed '1e id' f")).toMatch(/sed e runs a command/);
    expect(await reason("GIT_EXTERNAL_DIFF=x git diff")).toMatch(/GIT_EXTERNAL_DIFF in its environment/);
    expect(await reason("export GIT_DIR=x; git log")).toMatch(/GIT_DIR in its environment/);
    expect(await reason("git grep -Oid x")).toMatch(/runs a program or writes a file/);
    expect(await reason("rg --pre ./x foo")).toMatch(/rg --pre is not known to be read-only/);
    expect(await reason("less README.md")).toMatch(/pager/);
  });

  it("a secret read through any reader is a guard ask, never approved by --auto", async () => {
    const wrong: string[] = [];
    for (const c of SECRET) {
      const d = await check("bash", c, ["bash * allow"], "bypassPermissions");
      const seg = d.segments?.find((s) => s.kind === "guard");
      if (d.action !== "ask" || d.autoApprove !== false || seg?.category !== "secret-read") wrong.push(`${c}: ${show(d)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("item 5: the floor understands expansion", () => {
  it("denies every spelling of / and the system folders, even with bash * allow in bypassPermissions", async () => {
    const wrong: string[] = [];
    for (const c of FLOOR) {
      const d = await check("bash", c, ["bash * allow", `bash ${c} allow`], "bypassPermissions");
      if (d.action !== "deny" || d.rule !== "dangerous floor") wrong.push(`${c}: ${show(d)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("asks (a guard ask --auto rejects) for every spelling of the home directory, with bash * allow in bypassPermissions", async () => {
    const wrong: string[] = [];
    for (const c of GUARD) {
      const d = await check("bash", c, ["bash * allow"], "bypassPermissions");
      if (!(d.action === "deny" && d.rule === "dangerous floor") && (d.action !== "ask" || d.autoApprove !== false || d.layer !== "guard")) wrong.push(`${c}: ${show(d)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("plan mode denies them, dontAsk refuses them", async () => {
    for (const c of ["rm -rf ~", "mv ~ /tmp/x", "tar -xf a.tar -C ~"]) {
      expect((await check("bash", c, [], "plan")).action, c).toBe("deny");
      expect((await check("bash", c, [], "dontAsk")).action, c).toBe("deny");
    }
  });

  it("leaves ordinary project work alone", async () => {
    for (const c of ["rm -rf build dist", "rm -rf ./node_modules/*", "mv a.txt b.txt", "cp -r docs ~", "cp -r src/. build/", "grep -rn TODO src", "tar -xzf vendor.tgz -C vendor", "rsync -a --delete src/ out/", "echo x > notes.txt", "unzip a.zip -d tmp", "rm *.log"]) {
      const d = await check("bash", c, ["bash * allow"]);
      expect(show(d), c).toMatch(/^allow/);
    }
  });
});

describe("item 6: file tools outside the project", () => {
  const outside = (p: string): string => path.join(home, p);
  it("asks for any path whose real location is outside, never approved by --auto or a mode", async () => {
    const wrong: string[] = [];
    const cases: Array<[string, string]> = [
      ["write", outside(".ssh/authorized_keys")], ["write", "~/.bashrc"], ["edit", "../other/x.ts"], ["read", "/etc/hostname"], ["read", "homelink/canary.txt"],
      ["write", "homelink/.ssh/authorized_keys"], ["ls", "~"], ["glob", "homelink"], ["grep", "/etc"],
    ];
    for (const mode of ["default", "acceptEdits", "bypassPermissions"] as Mode[]) {
      for (const [tool, p] of cases) {
        const d = await check(tool, p, ["read * allow", "edit * allow", "* * allow"], mode);
        if (d.action !== "ask" || d.autoApprove !== false || d.layer !== "guard" || !/outside the project/.test(d.reason)) wrong.push(`${mode} ${tool} ${p}: ${show(d)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect((await check("read", "homelink/canary.txt", [])).reason).toMatch(/really .*home\/canary\.txt/);
  });

  it("the user's own external_directory allow opens a folder; a deny stays a deny", async () => {
    expect((await check("read", outside("notes/a.md"), [`external_directory ${home}/notes/* allow`])).action).toBe("allow");
    expect((await check("read", "/etc/hostname", ["external_directory /etc/* deny"])).action).toBe("deny");
  });

  it("asks for writes to the project's control files; plan files and ordinary files stay writable", async () => {
    for (const p of [".git/hooks/pre-commit", ".git/config", ".oceancode/oceancode.json", ".claude/settings.json", ".claude/settings.local.json", ".mcp.json"]) {
      const d = await check("write", p, ["edit * allow"], "bypassPermissions");
      expect(show(d), p).toMatch(/^ask \[guard\]/);
      expect(d.autoApprove, p).toBe(false);
    }
    expect((await check("write", "src/a.ts", ["edit * allow"])).action).toBe("allow");
    expect((await check("write", ".oceancode/plans/p.md", [], "plan")).action).toBe("allow");
    expect((await check("read", ".mcp.json", [])).action).toBe("allow");
  });

  it("never reads a process's environment, command line or memory", async () => {
    for (const p of ["/proc/self/environ", "/proc/1/environ", "/proc/self/cmdline", `/proc/${process.pid}/mem`, "/proc/self/fd/0"]) {
      expect(show(await check("read", p, ["* * allow", `external_directory /proc/* allow`], "bypassPermissions")), p).toMatch(/^deny \[file-guard\]/);
    }
  });
});

describe("the same through the compiled CLI (permissions check --json)", () => {
  it("a sample of each class", async () => {
    const sb = makeSandbox("oc-attack-cli-");
    try {
      sb.write(".config/oceancode/oceancode.json", JSON.stringify({ permission: ["bash * allow", "edit * allow"] }), "home");
      const run = async (...args: string[]): Promise<PermissionDecision> => {
        const r = await runCliAsync(["--dir", sb.project, "permissions", "check", "--json", ...args], { env: sb.env });
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(r.stdout) as PermissionDecision;
      };
      const [floor, home1, sed, secret, write, proc] = await Promise.all([
        run("bash", "cd / && rm -rf */"),
        run("bash", "env --split-string='rm -rf ~'"),
        run("--mode", "default", "bash", "sed -n '1e id' README.md"),
        run("bash", "git show :.env"),
        run("write", "~/.ssh/authorized_keys"),
        run("read", "/proc/self/environ"),
      ]);
      expect(floor).toMatchObject({ action: "deny", rule: "dangerous floor" });
      expect(home1).toMatchObject({ action: "ask", layer: "guard", autoApprove: false });
      // off the safe list, so the user's bash * allow decides (allow); with bash * ask it would ask
      expect(sed.segments![0]).toMatchObject({ kind: "plain", guard: { verdict: "ask" } });
      expect(secret).toMatchObject({ action: "ask", layer: "guard", autoApprove: false });
      expect(write).toMatchObject({ action: "ask", layer: "guard", autoApprove: false });
      expect(proc).toMatchObject({ action: "deny", layer: "file-guard" });
    } finally {
      sb.cleanup();
    }
  }, 60_000);
});
