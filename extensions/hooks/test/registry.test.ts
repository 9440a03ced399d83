/** Reload on a settings change: the watcher on a real .claude directory, debounced. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HookRegistry } from "../registry.js";
import { readSource } from "../sources.js";
import type { Root } from "../../../kernel/walk.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-hooks-watch-"));
afterEach(() => undefined);

describe("HookRegistry.watch", () => {
  it("reloads once, debounced, when a Claude Code settings file is saved; ignores other files", async () => {
    const dir = path.join(tmp, ".claude");
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "settings.json");
    const root: Root = { tier: "user", ecosystem: "claude", dir, project: tmp, trustedByDefault: true };
    let loads = 0;
    const reg = new HookRegistry(async () => {
      loads++;
      const s = readSource(file, root);
      return s ? [s] : [];
    });
    await reg.reload();
    expect(reg.sources).toHaveLength(0);
    let reloaded = 0;
    reg.watch([dir, path.join(tmp, "does-not-exist")], 100, () => reloaded++);
    fs.writeFileSync(path.join(dir, "notes.md"), "x");
    await new Promise((r) => setTimeout(r, 300));
    expect(reloaded).toBe(0);
    fs.writeFileSync(file, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "a" }] }] } }));
    fs.appendFileSync(file, "\n");
    await new Promise((r) => setTimeout(r, 500));
    expect(reloaded).toBe(1);
    expect(loads).toBe(2);
    expect(reg.sources[0]?.groups[0]?.event).toBe("Stop");
    reg.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
