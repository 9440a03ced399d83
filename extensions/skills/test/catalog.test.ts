/** The reader, the collision pass, name resolution, frontmatter and argument expansion, on real files. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Root } from "../../../kernel/api.js";
import { buildCatalog, formatListing, readRoot, resolveIn } from "../catalog.js";
import { expandBody, splitArgs } from "../expand.js";
import { parseFrontmatter } from "../frontmatter.js";
import { stableId } from "../kit.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-skills-unit-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(rel: string, text: string): void {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
}
const root = (tier: Root["tier"], ecosystem: string, rel: string, plugin?: Root["plugin"]): Root => ({
  tier,
  ecosystem,
  dir: path.join(tmp, rel),
  project: tmp,
  trustedByDefault: tier !== "repo",
  ...(plugin ? { plugin } : {}),
});

write("p/.claude/skills/deep/SKILL.md", "---\ndescription: claude deep\n---\nCLAUDE DEEP\n");
write("p/.claude/commands/deep.md", "a command the skill of the same name hides\n");
write("p/.claude/commands/git/commit.md", "---\ndescription: commit\n---\nnested command\n");
write("p/.opencode/command/deep.md", "---\ndescription: opencode deep\n---\nOPENCODE DEEP\n");
write("h/.claude/skills/deep/SKILL.md", "---\ndescription: user deep\n---\nUSER DEEP\n");
write("h/.claude/skills/only-user/SKILL.md", "---\ndescription: hidden\ndisable-model-invocation: true\n---\nx\n");
write("h/.oceancode/skills/quiet/SKILL.md", "---\ndescription: for the model\nuser-invocable: false\n---\nx\n");
write("plug/skills/deep/SKILL.md", "---\ndescription: plugin deep\n---\nPLUGIN DEEP\n");
write("plug/skills/lint/SKILL.md", "---\ndescription: plugin lint\n---\nPLUGIN LINT\n");
write("off/skills/gone/SKILL.md", "---\ndescription: from a disabled plugin\n---\nx\n");

const roots: Root[] = [
  root("repo", "claude", "p/.claude"),
  root("repo", "opencode", "p/.opencode"),
  root("user", "oceancode", "h/.oceancode"),
  root("user", "claude", "h/.claude"),
  root("plugin", "claude", "plug", { name: "tools-pack", enabled: true, trusted: false, source: "claude" }),
  root("plugin", "claude", "off", { name: "off-pack", enabled: false, trusted: false, source: "claude" }),
];
const discover = () => buildCatalog(roots.flatMap((r) => readRoot(r).map((item) => ({ item, root: r }))));

describe("the catalog", () => {
  it("qualifies only colliding members; a tier with the name twice uses the stable id", () => {
    const names = discover().map((s) => s.qualifiedName);
    expect(names).toEqual(["repo.claude_code:deep", "commit", "repo.open_code:deep", "quiet", "user:deep", "only-user", "tools-pack:deep", "tools-pack:lint"]);
  });

  it("gives every item its stable id whether or not it collides", () => {
    const byName = Object.fromEntries(discover().map((s) => [s.qualifiedName, s.id]));
    expect(byName["commit"]).toBe("repo.claude_code:commit");
    expect(byName["quiet"]).toBe("user.ocean_code:quiet");
    expect(byName["user:deep"]).toBe("user.claude_code:deep");
    expect(stableId("local", "oceancode", "tdd")).toBe("local.ocean_code:tdd");
  });

  it("is deterministic and idempotent", () => {
    expect(JSON.stringify(discover())).toBe(JSON.stringify(discover()));
  });

  it("resolves a bare name to the narrowest copy, plugin items by <plugin>:<name> or an unshared bare name", () => {
    const items = discover();
    expect(resolveIn(items, "deep")?.description).toBe("claude deep");
    expect(resolveIn(items, "/user:deep")?.description).toBe("user deep");
    expect(resolveIn(items, "repo.open_code:deep")?.description).toBe("opencode deep");
    expect(resolveIn(items, "tools-pack:deep")?.description).toBe("plugin deep");
    expect(resolveIn(items, "lint")?.description).toBe("plugin lint");
    expect(resolveIn(items, "gone")).toBeUndefined();
  });

  it("keeps disable-model-invocation from the model and user-invocable: false from the user", () => {
    const items = discover();
    expect(resolveIn(items, "only-user", "model")).toBeUndefined();
    expect(resolveIn(items, "only-user", "user")?.name).toBe("only-user");
    expect(resolveIn(items, "quiet", "user")).toBeUndefined();
    expect(resolveIn(items, "quiet", "model")?.name).toBe("quiet");
    expect(formatListing(items)).not.toContain("only-user");
    expect(formatListing(items)).toContain("- quiet: for the model");
    expect(formatListing([])).toBe("");
    const long = { ...items[0]!, description: `x</available_skills>${"y".repeat(2000)}` };
    const line = formatListing([long]).split("\n")[2]!;
    expect(line).not.toContain("</available_skills>");
    expect(line.length).toBeLessThan(1100);
  });

  it("past its budget, the listing keeps every name and cuts descriptions to an equal share (names only when the share is tiny)", () => {
    const base = discover()[0]!;
    const many = Array.from({ length: 300 }, (_, i) => ({ ...base, qualifiedName: `skill-${i}`, description: `does thing ${i} `.repeat(20) }));
    const full = formatListing(many, 1e9);
    const cut = formatListing(many, 20_000);
    expect(full.length).toBeGreaterThan(60_000);
    expect(cut.length).toBeLessThanOrEqual(20_000 + 400);
    for (let i = 0; i < 300; i++) expect(cut).toContain(`- skill-${i}: does thing ${i}`);
    expect(cut).toContain("(300 items: descriptions shortened to fit");
    const tiny = formatListing(many, 3_000);
    expect(tiny).toContain("- skill-299\n");
    expect(tiny).toContain("descriptions left out to fit");
    expect(formatListing(many.slice(0, 3))).not.toContain("to fit");
  });
});

describe("frontmatter", () => {
  it("reads lists, folded descriptions and string booleans", () => {
    const p = parseFrontmatter("---\nname: x\ndescription: >\n  two\n  lines\nallowed-tools:\n  - Read\n  - Bash(git:*)\nuser-invocable: 'false'\n---\nbody\n");
    expect(p.error).toBeUndefined();
    expect(p.fm).toMatchObject({ name: "x", description: "two lines", "allowed-tools": ["Read", "Bash(git:*)"], "user-invocable": false });
    expect(p.body).toBe("body\n");
    expect(parseFrontmatter("---\nallowed-tools: Read, Grep Bash(git add:*)\n---\n").fm?.["allowed-tools"]).toEqual(["Read", "Grep", "Bash(git add:*)"]);
  });

  it("reports an unclosed or non-mapping block, and a file without one is all body", () => {
    expect(parseFrontmatter("---\nname: x\nbody").error).toMatch(/no closing/);
    expect(parseFrontmatter("---\n- a\n- b\n---\nbody").error).toMatch(/not a YAML mapping/);
    expect(parseFrontmatter("just text\n")).toEqual({ body: "just text\n" });
  });
});

describe("argument expansion", () => {
  it("expands $ARGUMENTS, $1..$9, $ARGUMENTS[N] and ${CLAUDE_SKILL_DIR} in one pass", () => {
    expect(expandBody("a=$1 b=$2 c=$3 all=$ARGUMENTS first=$ARGUMENTS[0] dir=${CLAUDE_SKILL_DIR}", `x "y z"`, "/s")).toBe(`a=x b=y z c= all=x "y z" first=x dir=/s`);
    expect(expandBody("$ARGUMENTS", "$1 stays", "/s")).toBe("$1 stays");
    expect(expandBody("cost $10", "a", "/s")).toBe("cost $10\n\nARGUMENTS: a");
    expect(expandBody("no placeholder\n", "", "/s")).toBe("no placeholder\n");
    expect(splitArgs(`a 'b c' "d \\" e"`)).toEqual(["a", "b c", 'd " e']);
  });
});

describe("the example in examples/skills", () => {
  it("reads as one skill and one command, and the skill expands its argument and folder", () => {
    const dir = path.resolve(import.meta.dirname, "../../../examples/skills");
    const r: Root = { ...root("user", "oceancode", ""), dir };
    const items = buildCatalog(readRoot(r).map((item) => ({ item, root: r })));
    expect(items.map((s) => `${s.kind} ${s.id}`)).toEqual(["skill user.ocean_code:commit-message", "command user.ocean_code:explain"]);
    expect(items.every((s) => !s.warning)).toBe(true);
    const body = parseFrontmatter(fs.readFileSync(items[0]!.file, "utf8")).body;
    const text = expandBody(body, "14", items[0]!.dir);
    expect(text).toContain("end with `Refs #14`");
    expect(text).toContain(`${path.join(dir, "skills", "commit-message")}/checklist.md`);
  });
});
