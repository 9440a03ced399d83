/**
 * A TypeScript author's view of the published package: in a fresh folder outside this repo with
 * oceancode installed as a (dev) dependency, `oceancode/kernel`, `oceancode/api/<id>` and
 * `oceancode/testing` type-check through the exports map (skipLibCheck off: the .d.ts files themselves
 * must be sound).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../kit/cli.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-sdk-types-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the published types", () => {
  it("type-check a provider, a tool, a storage and a conformance test written against oceancode/*", () => {
    fs.mkdirSync(path.join(dir, "node_modules", "@types"), { recursive: true });
    fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "oceancode")); // what `npm i -D <path to oceancode>` leaves
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@types", "node"), path.join(dir, "node_modules", "@types", "node"));
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] }, files: ["ext.ts"] }),
    );
    fs.writeFileSync(
      path.join(dir, "ext.ts"),
      `import type { Extension, ExtensionContext } from "oceancode/kernel";
import type { EngineService, Provider, ToolDefinition } from "oceancode/api/engine";
import type { StorageService } from "oceancode/api/storage";
import type { StoredTodos } from "oceancode/api/todos";
import { WriteQueue } from "oceancode/kit/storage";
import { emptyUsage } from "oceancode/kit/engine";
import { describeProviderContract, describeToolContract } from "oceancode/testing";
const provider: Provider = { id: "mine", async *stream() { yield { type: "usage", usage: emptyUsage() }; yield { type: "done", stopReason: "end_turn" }; } };
export const queueClass: typeof WriteQueue = WriteQueue;
const tool: ToolDefinition = { name: "mine", description: "d", kind: "read", inputSchema: { type: "object" }, run: async () => ({ content: "" }) };
export const ext: Extension = {
  activate(ctx: ExtensionContext) {
    // typed by the contracts' ServiceMap entries: no hand-written generic
    const engine: EngineService = ctx.services.get("engine");
    engine.providers.register(provider);
    engine.tools.register(tool);
    const s: StorageService | undefined = ctx.services.tryGet("storage");
    void s?.listSessions({ limit: 1 });
    ctx.services.get("mine").hello();
    // per-session state: typed slots, the owners' (todos) and a third party's own (mine)
    void engine.createSession({ cwd: ".", model: "m", overrides: { mine: 1 } }).then((session) => {
      const todos: StoredTodos | undefined = session.info.overrides.todos;
      const mine: number | undefined = session.info.overrides.mine;
      void [todos, mine];
      // @ts-expect-error a slot holds its declared type only
      session.info.overrides.todos = "not a list";
    });
    // @ts-expect-error a name no contract declares is unknown until checked
    ctx.services.get("someone-elses").hello();
  },
};
export interface MineService { hello(): void }
declare module "oceancode/kernel" {
  interface ServiceMap { mine: MineService }
}
declare module "oceancode/api/engine" {
  interface SessionSlots { mine: number }
}
describeProviderContract("mine", () => ({ provider, model: "m", arrange() {} }));
describeToolContract("mine", () => ({ tool, input: {} }));
// @ts-expect-error internals are not exported
import type { Kernel } from "oceancode/dist/kernel/kernel.js";
`,
    );
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
