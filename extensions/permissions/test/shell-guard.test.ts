import { describe, it, expect } from "vitest";
import { classifyCommand } from "../../shell-guard/classify.js";

const opts = { home: "/home/u", project: "/work/p", cwd: "/work/p" };
const verdict = async (c: string, extra: string[] = []) => (await classifyCommand(c, { ...opts, safeListExtra: extra })).verdict;
const kinds = async (c: string) => (await classifyCommand(c, opts)).segments.map((s) => `${s.kind}:${s.command}`);

describe("safe list (flag-aware)", () => {
  it.each([
    ["git status", "allow"], ["git log --oneline -5", "allow"], ["ls -la", "allow"], ["rg foo src", "allow"], ["find . -name '*.ts'", "allow"],
    ["find . -delete", "ask"], ["find . -exec rm {} ;", "ask"], ["find . -execdir cat {} +", "ask"], ["find . -ok rm {} ;", "ask"], ["find . -fprint out", "ask"], ["find . -fls out", "ask"],
    ["git branch", "allow"], ["git branch -a", "allow"], ["git branch -d x", "ask"], ["git branch -D x", "ask"], ["git branch -m a b", "ask"], ["git branch --set-upstream-to=o/x", "ask"], ["git branch --unset-upstream", "ask"], ["git branch newbranch", "ask"],
    ["git remote -v", "allow"], ["git remote add o url", "ask"], ["git remote set-url o u", "ask"], ["git remote prune o", "ask"], ["git remote rename a b", "ask"],
    ["git tag", "allow"], ["git tag -l 'v*'", "allow"], ["git tag v1", "ask"], ["git tag -a v1 -m x", "ask"], ["git tag -d v1", "ask"], ["git tag -s v1", "ask"],
    ["ls > out.txt", "ask"], ["git log >> log.txt", "ask"], ["ls 2>/dev/null", "allow"], ["ls 2>&1", "allow"],
    ["sed -i s/a/b/ f", "ask"], ["sed s/a/b/ f", "allow"], ["sort -o out f", "ask"], ["git -c core.pager=x log", "ask"],
  ])("%s -> %s", async (c, v) => expect(await verdict(c)).toBe(v));
  it("safe_list_extra adds prefixes", async () => {
    expect(await verdict("make check")).toBe("ask");
    expect(await verdict("make check", ["make check"])).toBe("allow");
    expect(await verdict("make install", ["make check"])).toBe("ask");
  });
});

describe("segments and chaining", () => {
  it("asks when any segment asks (git status && rm x)", async () => {
    const c = await classifyCommand("git status && rm x", opts);
    expect(c.verdict).toBe("ask");
    expect(c.segments.map((s) => s.verdict)).toEqual(["allow", "ask"]);
  });
  it("splits pipelines, ; || subshells, $(...) and backticks", async () => {
    expect(await kinds("ls | wc -l; (cd x || pwd) && echo $(date) `whoami`")).toEqual(["safe:ls", "safe:wc -l", "plain:cd x", "safe:pwd", "safe:echo $(date) `whoami`", "safe:date", "safe:whoami"]);
  });
  it("peels wrappers; only those that change neither user nor environment keep a reader safe", async () => {
    const c = await classifyCommand("sudo -u bob timeout 5 nice -n 3 env FOO=1 /usr/bin/git status", opts);
    expect(c.segments[0]!.command).toBe("git status");
    expect(c.verdict).toBe("ask");
    expect(c.reason).toMatch(/FOO in its environment/);
    expect((await classifyCommand("timeout 5 nice -n 3 /usr/bin/git status", opts)).verdict).toBe("allow");
    expect((await classifyCommand("sudo git status", opts)).reason).toMatch(/under sudo is off the safe list/);
  });
  it("parses bash -c strings recursively", async () => {
    expect(await kinds("bash -c 'ls && git push origin x'")).toEqual(["plain:bash -c ls && git push origin x", "safe:ls", "plain:git push origin x"]);
  });
});

describe("the catastrophic-delete guard asks (not the floor)", () => {
  it.each(["rm -rf $DIR/", "rm -rf ~", "rm -rf $HOME", "rm -rf /work/p", "rm -rf .", "rm -rf ..", "find / -delete", "find . -name x | xargs rm -rf", "eval $CMD", "bash -c \"$SCRIPT\"", "cat x | sh"])("%s", async (c) => {
    const r = await classifyCommand(c, opts);
    expect(r.verdict).toBe("ask");
    expect(r.segments.some((s) => s.kind === "guard")).toBe(true);
  });
  it("says which kind of ask it is (Segment.category)", async () => {
    const cat = async (c: string) => (await classifyCommand(c, opts)).segments.find((s) => s.kind === "guard")?.category;
    expect(await cat("rm -rf ~")).toBe("delete");
    expect(await cat("eval $CMD")).toBe("opaque");
    expect(await cat("echo 'open")).toBe("opaque");
    expect((await classifyCommand("ls", opts)).segments[0]!.category).toBeUndefined();
  });
  it("unparseable and too-long commands ask", async () => {
    expect((await classifyCommand("echo 'open", opts)).segments[0]!.kind).toBe("guard");
    const long = await classifyCommand(`echo ${"a".repeat(10_001)}`, opts);
    expect(long.verdict).toBe("ask");
    expect(long.reason).toMatch(/longer than 10000/);
  });
  it("ordinary deletes are plain", async () => {
    expect(await kinds("rm -rf build dist")).toEqual(["plain:rm -rf build dist"]);
  });
});
