/** The userPrompt tap's decision (first prompt only; a resumed session whose rows carry the block) and warning escapes. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ExtensionContext } from "../../../kernel/api.js";
import type { PromptInput, Row, ToolCallContext, ToolResult, TurnContext } from "../../engine/api.js";
import { MEMORY_HEADER } from "../api.js";
import ext, { carriesMemory, printable } from "../index.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-rules-tap-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
fs.writeFileSync(path.join(tmp, "CLAUDE.md"), "TAP MEMORY");
fs.mkdirSync(path.join(tmp, "lib", "deep"), { recursive: true });
fs.writeFileSync(path.join(tmp, "lib", "AGENTS.md"), "LIB MEMORY");
fs.writeFileSync(path.join(tmp, "lib", "deep", "x.ts"), "code");

type Tap = (input: PromptInput, ctx: TurnContext) => PromptInput;
type ToolTap = (result: ToolResult, ctx: ToolCallContext) => ToolResult;
function activate() {
  let tap: Tap | undefined;
  const warnings: string[] = [];
  let toolTap: ToolTap | undefined;
  const engine = { hooks: { userPrompt: { tap: (_o: unknown, fn: Tap) => void (tap = fn) }, toolResult: { tap: (_o: unknown, fn: ToolTap) => void (toolTap = fn) } } };
  const ctx = {
    id: "rules",
    paths: { project: tmp, home: path.join(tmp, "nohome") },
    log: { warn: (m: string) => warnings.push(m) },
    registerReader: () => undefined,
    walk: () => [],
    provide: () => undefined,
    services: { tryGet: (id: string) => (id === "engine" ? engine : undefined) },
  } as unknown as ExtensionContext;
  ext.activate(ctx);
  return { tap: tap!, toolTap: toolTap!, warnings };
}
const session = (rows: Row[] = []) => ({ rows, ext: new Map<string, unknown>() });
const turn = (s: ReturnType<typeof session>) => ({ session: s, turn: 1, signal: new AbortController().signal }) as unknown as TurnContext;

describe("the userPrompt tap", () => {
  it("adds the block to the first prompt only, before the context hooks added", () => {
    const { tap } = activate();
    const s = session();
    const first = tap({ text: "hi", context: ["hook context"] }, turn(s));
    expect(first.context).toHaveLength(2);
    expect(first.context[1]).toBe("hook context");
    expect(first.context[0]!.startsWith(MEMORY_HEADER)).toBe(true);
    expect(first.context[0]).toContain("TAP MEMORY");
    expect(tap({ text: "again", context: [] }, turn(s)).context).toEqual([]);
  });

  it("a blocked prompt gets nothing, and the next prompt still gets the block", () => {
    const { tap } = activate();
    const s = session();
    const blocked = { text: "x", context: [], blocked: { reason: "no", by: "hooks" } };
    expect(tap(blocked, turn(s))).toBe(blocked);
    expect(tap({ text: "y", context: [] }, turn(s)).context).toHaveLength(1);
  });

  it("a resumed session whose rows carry the block gets no second copy", () => {
    const { tap } = activate();
    const row = { role: "user", text: "old", context: [`${MEMORY_HEADER}\nold memory`], seq: 1, turn: 1, step: 0, at: 0 } as unknown as Row;
    expect(carriesMemory(session([row]))).toBe(true);
    expect(tap({ text: "z", context: [] }, turn(session([row]))).context).toEqual([]);
  });
});

describe("the toolResult tap (a directory first touched this session)", () => {
  const call = (s: ReturnType<typeof session>, name: string, input: Record<string, unknown>) =>
    ({ session: s, call: { id: "c", name, input }, cwd: tmp }) as unknown as ToolCallContext;
  const result = (): ToolResult => ({ callId: "c", name: "read", content: "file text", isError: false });

  it("appends the touched directory's instruction files once per session", () => {
    const { toolTap } = activate();
    const s = session();
    const first = toolTap(result(), call(s, "read", { file_path: path.join(tmp, "lib", "deep", "x.ts") }));
    expect(first.content.startsWith("file text\n\n<system-reminder>\n# Memory for a directory first touched")).toBe(true);
    expect(first.content).toContain("LIB MEMORY");
    expect(first.content).not.toContain("TAP MEMORY");
    expect(toolTap(result(), call(s, "read", { file_path: path.join(tmp, "lib", "AGENTS.md") })).content).toBe("file text");
  });

  it("the working directory's own levels, other tools and paths outside the worktree add nothing", () => {
    const { toolTap } = activate();
    const s = session();
    expect(toolTap(result(), call(s, "read", { file_path: path.join(tmp, "CLAUDE.md") })).content).toBe("file text");
    expect(toolTap(result(), call(s, "web_fetch", { url: "x" })).content).toBe("file text");
    expect(toolTap(result(), call(s, "read", { file_path: "/etc/hostname" })).content).toBe("file text");
    const denied = { ...result(), isError: true, content: "Permission denied" };
    expect(toolTap(denied, call(s, "read", { file_path: path.join(tmp, "lib", "deep", "x.ts") })).content).toBe("Permission denied");
  });
});

it("printable shows control and bidi characters as text (the kernel's safe-output kit)", () => {
  expect(printable("a\u001b[31mb\u202ec\u0007\nd")).toBe("a\u241b[31mb<U+202E>c\u2407\u2424d");
});
