/** Point 1's hold list and lexical outside-path check, point 4's env_missing signals, point 7's policy (pure). */
import { describe, expect, it } from "vitest";
import { holdReason, outsidePath, permissionVerdict } from "../points/permission-policy.js";
import { envMissing, hintLine } from "../points/triage-policy.js";
import { finishVerdict } from "../points/supervisor-policy.js";

const P = "/work/proj";
const H = "/home/u";
const thr = (_: string, f: number) => f;

describe("point 1 policy", () => {
  it("the hold list", () => {
    for (const c of ["npm install x", "pnpm add y", "yarn add z", "pip install requests", "python3 -m pip install r", "cargo install rg", "sudo apt-get install jq", "brew install fd", "npm publish", "git push origin main", "git -C x push", "rm -rf build", "rm -r dist", "rm -fr a", "ssh host ls", "scp a b:c", "curl -T f https://x", "curl -d @f https://x", "curl --data-binary @f x", "curl -F a=@f x", "curl -X POST https://x", "python x.py", "node build.js", "bash run.sh", "sh x", "ruby a.rb", "perl a.pl", "make && npm i"]) {
      expect(holdReason(c), c).toBeDefined();
    }
    for (const c of ["npm test", "npm run build", "git status", "rm a.txt", "curl https://x", "python -c 'print(1)'", "node --version", "python -m pytest", "ls -la", "cargo build"]) {
      expect(holdReason(c), c).toBeUndefined();
    }
  });
  it("paths outside the project, lexically", () => {
    const out = (c: string, wd = P) => outsidePath(c, wd, P, H);
    expect(out("cat /etc/passwd")).toBe("/etc/passwd");
    expect(out("ls ~/x")).toBe("~/x");
    expect(out("ls ..")).toBe("..");
    expect(out("cp a ../b")).toBe("../b");
    expect(out("gcc -I/usr/include a.c")).toBe("-I/usr/include");
    expect(out("tool --out=/tmp/x")).toBe("--out=/tmp/x");
    expect(out("make DESTDIR=/opt")).toBe("DESTDIR=/opt");
    expect(out("cat $HOME/x")).toBe("$HOME/x");
    expect(out("echo 2>/tmp/err")).toBe("2>/tmp/err");
    expect(out("ls", "/tmp")).toBe("workdir /tmp");
    expect(out("ls src/a ./b sub/../c")).toBeUndefined();
    expect(out("curl https://example.com/a/b > /dev/null")).toBeUndefined();
    expect(out("echo hi 2>/dev/null")).toBeUndefined();
    expect(out(`cat ${P}/src/x`)).toBeUndefined();
  });
  it("the safe class", () => {
    const a = (d: number, e: number, r: number, b: string) => ({ destructive: { type: "noul" as const, noul: d }, egress: { type: "noul" as const, noul: e }, reversible: { type: "score" as const, score: r, confidence: 1, probabilities: [0, 0, 1] }, blast_radius: { type: "choice" as const, choice: b, confidence: 1, probabilities: { [b]: 1 } } });
    expect(permissionVerdict(a(0.1, 0.1, 1.8, "project"), thr)).toBe("allow");
    expect(permissionVerdict(a(0.1, 0.1, 1.8, "single-file"), thr)).toBe("allow");
    expect(permissionVerdict(a(0.1, 0.1, 1.2, "project"), thr)).toBe("ask");
    expect(permissionVerdict(a(0.3, 0.1, 1.8, "project"), thr)).toBe("reject");
    expect(permissionVerdict(a(0.1, 0.5, 1.8, "project"), thr)).toBe("reject");
    expect(permissionVerdict(a(0.1, 0.1, 1.8, "system"), thr)).toBe("reject");
    expect(permissionVerdict(a(0.1, 0.1, 1.8, "project"), (n, f) => (n === "permission_reversible" ? 1.9 : f))).toBe("ask");
  });
});

describe("point 4 and 7 policies", () => {
  it("env_missing signals and the hint line", () => {
    expect(envMissing("foo x", "bash: line 1: foo: command not found\nexit code: 127", 127)).toEqual({ name: "foo" });
    expect(envMissing("python3 a.py", "ModuleNotFoundError: No module named 'numpy'\nexit code: 1", 1)).toEqual({ name: "numpy" });
    expect(envMissing("node a.js", "Error: Cannot find module 'left-pad'\nexit code: 1", 1)).toEqual({ name: "left-pad" });
    expect(envMissing("x", "exit code: 127", 127)).toEqual({});
    expect(envMissing("npm test", "1 failing\nexit code: 1", 1)).toBeUndefined();
    expect(hintLine("python", 127, "/nonexistent")).toBe("jev triage: python is not available (exit 127); use what the project already has and do not install anything the task did not ask for");
    expect(hintLine(undefined, 127, "")).toContain("jev triage: a command is not available (exit 127)");
    expect(hintLine("rg", 127, "/bin:/usr/bin")).toContain("— grep is available and do not install");
  });
  it("the supervisor continues only when clearly not complete and progress is real", () => {
    const a = (c: number, p0: number) => ({ complete: { type: "noul" as const, noul: c }, progress: { type: "score" as const, score: 1, confidence: 0.4, probabilities: [p0, (1 - p0) / 2, (1 - p0) / 2] } });
    expect(finishVerdict(a(0.1, 0), thr)).toBe("continue");
    expect(finishVerdict(a(0.5, 0), thr)).toBe("finish");
    expect(finishVerdict(a(0.1, 0.7), thr)).toBe("finish");
  });
});
