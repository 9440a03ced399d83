import { describe, it, expect } from "vitest";
import { classifyCommand } from "../../extensions/shell-guard/classify.js";
import type { Classification, Segment } from "../../extensions/shell-guard/api.js";

// The shapes behind the corpus, one behaviour each. In-process; checked, never executed.
const opts = { home: "/home/u", project: "/work/p", cwd: "/work/p" };
const run = (c: string, o: Partial<typeof opts> = {}): Promise<Classification> => classifyCommand(c, { ...opts, ...o });
const guards = (r: Classification): Segment[] => r.segments.filter((s) => s.kind === "guard");
const kinds = (r: Classification): string[] => r.segments.map((s) => `${s.kind}:${s.command}`);

describe("secret reads", () => {
  it("names the file and sets the category", async () => {
    const r = await run("cat .env");
    expect(r.verdict).toBe("ask");
    expect(r.segments[0]).toMatchObject({ kind: "guard", category: "secret-read", verdict: "ask" });
    expect(r.reason).toBe("reads a secret file: .env (a .env file)");
  });

  it("tells a pattern, a program or a destination from a file read", async () => {
    expect(guards(await run("grep .env .gitignore"))).toEqual([]);
    expect(guards(await run("grep -e .env -r src"))).toEqual([]);
    expect(guards(await run("sed -e 's/.env/x/' notes.txt"))).toEqual([]);
    expect(guards(await run("cp .env.example .env"))).toEqual([]);
    expect(guards(await run("cp -t backup .env"))[0]?.category).toBe("secret-read");
    expect(guards(await run("grep -r --include=.env* KEY ."))[0]?.reason).toMatch(/files named '\.env\*'/);
  });

  it("does not count an ssh key used to log in (scp -i, rsync -e 'ssh -i')", async () => {
    expect(guards(await run("scp -i ~/.ssh/id_rsa build.tgz host:/tmp"))).toEqual([]);
    expect(guards(await run("rsync -a -e 'ssh -i ~/.ssh/id_rsa' dist/ host:/srv"))).toEqual([]);
  });

  it("follows globs the way bash expands them", async () => {
    expect(guards(await run("cat .*"))[0]?.reason).toMatch(/matches \.env/);
    expect(guards(await run("cat *"))).toEqual([]); // * skips dotfiles and names no env
    expect(guards(await run("head ~/.ssh/*.pub"))).toEqual([]);
    expect(guards(await run("cat ~/.ssh/id_*"))[0]?.reason).toMatch(/id_rsa/);
  });

  it("reads relative to the directory a cd moved to, and a subshell's cd does not leak", async () => {
    expect(guards(await run("cd ~/.aws && cat credentials"))[0]?.category).toBe("secret-read");
    expect(guards(await run("(cd ~/.aws) && cat credentials"))).toEqual([]);
    expect(guards(await run("cd ~/.aws | true; cat credentials"))).toEqual([]);
    expect(guards(await run("echo $(cd ~/.aws) && cat credentials"))).toEqual([]);
  });
});

describe("persistent writes", () => {
  it("asks for a write into another user's home too", async () => {
    expect(guards(await run("echo k | sudo tee -a /root/.ssh/authorized_keys"))[0]?.category).toBe("persistence");
  });
  it("does not ask for reads of the same files or writes elsewhere", async () => {
    expect(guards(await run("cat ~/.bashrc"))).toEqual([]);
    expect(guards(await run("echo x >> notes/bashrc.md"))).toEqual([]);
    expect(guards(await run("crontab -l"))).toEqual([]);
    expect(guards(await run("git config --get core.hooksPath"))).toEqual([]);
  });
  it("asks for a recursive chmod of an ancestor of the project, not of the project itself", async () => {
    expect(guards(await run("chmod -R g+w /work"))[0]?.category).toBe("persistence");
    expect(guards(await run("chmod -R g+w /work/p"))).toEqual([]);
  });
});

describe("lost history", () => {
  it("looks at the word, not at a cwd that happens to sit under a .git", async () => {
    expect(guards(await run("rm -rf build", { cwd: "/repo/.git/worktrees/x" }))).toEqual([]);
    expect(guards(await run("rm -rf .git/objects"))[0]?.category).toBe("history");
  });
  it("asks for git clean unless it is a dry run", async () => {
    for (const c of ["git clean -fd", "git clean -xdf", "git clean --force -d", "git clean -f -X"]) expect(guards(await run(c))[0]?.category, c).toBe("history");
    for (const c of ["git clean -n", "git clean -nfd", "git clean --dry-run -f"]) expect(guards(await run(c)), c).toEqual([]);
  });
  it("asks for discarding the whole tree, not one file", async () => {
    expect(guards(await run("git checkout HEAD -- .")).length).toBe(1);
    expect(guards(await run("git checkout HEAD -- src/a.ts"))).toEqual([]);
    expect(guards(await run("git restore -SW ."))[0]?.category).toBe("history");
    expect(guards(await run("git restore -S ."))).toEqual([]);
  });
});

describe("inline interpreter code", () => {
  it("classifies an extracted shell-out as shell text: the floor inside is denied", async () => {
    const r = await run(`python3 -c "import subprocess; subprocess.run(['sh', '-c', 'rm -rf /'])"`);
    expect(r.verdict).toBe("deny");
    expect(r.segments[0]).toMatchObject({ kind: "guard", category: "inline-code" });
    expect(kinds(r)).toContain("floor:rm -rf /");
  });
  it("asks without looking further when the command is not a literal", async () => {
    for (const c of [`node -e "require('child_process').execSync(cmd)"`, `python3 -c 'import os; os.system(f"rm -rf {d}")'`, `python3 -c "import os; os.system('rm -rf ' + d)"`]) {
      const r = await run(c);
      expect(r.verdict, c).toBe("ask");
      expect(r.segments.length, c).toBe(1);
      expect(r.segments[0]!.category, c).toBe("inline-code");
    }
  });
  it("asks for inline code it cannot see", async () => {
    expect((await run(`python3 -c "$CODE"`)).segments[0]).toMatchObject({ kind: "guard", category: "opaque" });
  });
  it("scans a here-doc or a piped literal fed to an interpreter as code, not as shell", async () => {
    const doc = await run("python3 - <<'EOF'\nimport shutil\nshutil.rmtree('build')\nEOF");
    expect(guards(doc)[0]?.category).toBe("inline-code");
    const plain = await run("python3 <<'EOF'\nprint(sum([1, 2]))\nEOF");
    expect(plain.segments.map((s) => s.kind)).toEqual(["plain"]);
    const floor = await run("node <<'EOF'\nrequire('child_process').execSync('rm -rf /')\nEOF");
    expect(floor.verdict).toBe("deny");
    expect(guards(await run(`echo "require('fs').rmSync('x', {recursive: true})" | node`))[0]?.category).toBe("inline-code");
  });
  it("leaves plain inline code plain", async () => {
    for (const c of ["python3 -c 'import re; print(re.sub(\"a\", \"b\", \"abc\"))'", "node -e 'console.log(/x/.exec(\"x\"))'", "ruby -e 'puts [1,2].sum'"]) {
      expect((await run(c)).segments.map((s) => s.kind), c).toEqual(["plain"]);
    }
  });
});

describe("computed command names", () => {
  it("denies when the arguments are the floor for a destructive command, and says so", async () => {
    const r = await run("$X -rf /");
    expect(r.verdict).toBe("deny");
    expect(r.reason).toMatch(/'\$X' is computed at run time, and as rm: recursive rm of \/ \(dangerous floor\)/);
    expect((await run("`which git` push --force origin main")).verdict).toBe("deny");
    expect((await run("$SHELL -c 'rm -rf /'")).verdict).toBe("deny");
  });
  it("asks (not denies) when no substitution reaches the floor", async () => {
    for (const c of ["$EDITOR notes.txt", "$(echo rm) -rf ~", '"$0" --help', "$X /dev/sda"]) {
      const r = await run(c);
      expect(r.verdict, c).toBe("ask");
      expect(r.segments[0]!.category, c).toBe("opaque");
    }
  });
});

describe("pipes into a shell", () => {
  it("checks the literal that reaches the shell, through cat and tee", async () => {
    expect((await run("echo 'rm -rf /' | cat | sh")).verdict).toBe("deny");
    expect((await run("echo x | echo 'rm -rf /' | sh")).verdict).toBe("deny");
    expect((await run("echo 'rm -rf /' | grep rm | sh")).segments.at(-1)).toMatchObject({ kind: "guard", category: "opaque" });
  });
});

describe("here-docs (tree-sitter hangs what follows `<<EOF` inside the here-doc node)", () => {
  it("checks a pipe or a list that follows the here-doc's start", async () => {
    expect((await run("cat <<EOF | sh\nrm -rf /\nEOF")).verdict).toBe("deny");
    expect((await run("cat <<EOF | bash -c 'rm -rf /'\nx\nEOF")).verdict).toBe("deny");
    expect((await run("cat <<EOF && rm -rf /\nx\nEOF")).verdict).toBe("deny");
    expect(guards(await run("cat <<EOF || cat .env\nx\nEOF"))[0]?.category).toBe("secret-read");
    expect(guards(await run("cat <<EOF | python3\nimport shutil; shutil.rmtree('x')\nEOF"))[0]?.category).toBe("inline-code");
    expect((await run("cat <<EOF | sh\necho hi\nEOF")).segments.map((s) => s.kind)).toEqual(["safe", "plain", "safe"]);
  });
  it("sees an output redirection written after the here-doc's start, and substitutions in its body", async () => {
    expect(guards(await run("cat <<EOF >> ~/.bashrc\nexport X=1\nEOF"))[0]?.category).toBe("persistence");
    expect((await run("cat <<EOF > notes.md\n$(rm -rf /)\nEOF")).verdict).toBe("deny");
  });
});

describe("text the grammar cannot parse", () => {
  it("asks, and still denies a floor shape between separators", async () => {
    const r = await run("[[ -d / ]] && rm -rf /");
    expect(r.segments[0]).toMatchObject({ kind: "guard", category: "opaque" });
    expect(r.verdict).toBe("deny");
    expect((await run("cat <<EOF; rm -rf /\nx\nEOF")).verdict).toBe("deny");
    expect((await run("echo 'open; ls")).segments.map((s) => s.kind)).toEqual(["guard"]);
  });
});

describe("paths (extensions/shell-guard/paths.ts)", () => {
  const ctx = { cwd: "/work/p", home: "/home/u" };
  it("knows every persistent place, through its cheap pre-check", async () => {
    const { persistPath } = await import("../../extensions/shell-guard/paths.js");
    const places = [".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".config/fish/config.fish", ".config/fish/conf.d/x.fish", ".ssh/authorized_keys", ".ssh", ".config/systemd/user/x.service", ".config/autostart/x.desktop", "Library/LaunchAgents/x.plist"];
    for (const p of places) expect(persistPath(`/home/u/${p}`, ctx), p).toBeDefined();
    for (const p of ["/etc/profile", "/etc/profile.d/x.sh", "/etc/bash.bashrc", "/etc/environment", "/etc/crontab", "/etc/cron.d/x", "/var/spool/cron/crontabs/u", "/etc/systemd/system/x.service", "/root/.bashrc", "/root/.ssh/authorized_keys", ".git/hooks/pre-commit", "sub/.git/config"]) {
      expect(persistPath(p, ctx), p).toBeDefined();
    }
    for (const p of ["/home/u/notes.md", "src/profile.ts", ".github/workflows/ci.yml", "/home/u/.config/git/config"]) expect(persistPath(p, ctx), p).toBeUndefined();
  });
  it("knows every secret, and the templates are not secrets", async () => {
    const { secretPath, isEnvFile } = await import("../../extensions/shell-guard/paths.js");
    for (const p of ["~/.ssh/id_rsa", "~/.ssh/keys/deploy.pem", "~/.aws/credentials", "~/.aws/config", "~/.config/gcloud/x.json", "~/.azure/x", "~/.docker/config.json", "~/.kube/config", "~/.npmrc", "~/.pypirc", "~/.netrc", "~/.git-credentials", "~/.gnupg/pubring.kbx", "~/.config/gh/hosts.yml", ".env", "a/.env.local", "prod.env", "/root/.aws/credentials"]) {
      expect(secretPath(p, ctx), p).toBeDefined();
    }
    for (const p of ["~/.ssh/id_rsa.pub", "~/.ssh/config", "~/.ssh/known_hosts", "~/.config/gh/config.yml", ".env.example", ".env.sample", ".env.template", ".env.dist", ".envrc", "environment.ts", "README"]) {
      expect(secretPath(p, ctx), p).toBeUndefined();
    }
    expect([".env", ".ENV", "x.env.y"].every(isEnvFile)).toBe(true);
    expect(["app.env.example", "env", ".environment"].some(isEnvFile)).toBe(false);
  });
  it("expands globs the way bash does and brace lists", async () => {
    const { globToRegExp, expandBraces } = await import("../../extensions/shell-guard/paths.js");
    expect(globToRegExp("*.env").test(".env")).toBe(false); // the shell's * skips a leading dot
    expect(globToRegExp("*.env", false).test(".env")).toBe(true); // find -name does not
    expect(globToRegExp("/a/.[e]n?").test("/a/.env")).toBe(true);
    expect(globToRegExp("/a/*").test("/a/b/c")).toBe(false);
    expect(expandBraces(".env{,.local}")).toEqual([".env", ".env.local"]);
    expect(expandBraces("plain")).toEqual(["plain"]);
  });
});
