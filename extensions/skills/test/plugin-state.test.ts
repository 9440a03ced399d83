/** installed.json read live: a plugin switched off after the walk ran is off for the fold (re-read when the file changes). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LivePluginState } from "../plugin-state.js";

describe("LivePluginState", () => {
  it("follows installed.json's own records and external overrides (the walk's rule); no readable file: the walk's state", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-plugstate-"));
    const file = path.join(dir, "installed.json");
    const live = new LivePluginState(file);
    const pk = { name: "pk", enabled: true, source: "oceancode" };
    const cc = { name: "cc", enabled: true, source: "claude" };
    expect(live.enabled(pk)).toBe(true); // no file: the walk's
    fs.writeFileSync(file, JSON.stringify({ plugins: [{ name: "pk", enabled: false }], external: { claude: { cc: { enabled: false } } } }));
    expect(live.enabled(pk)).toBe(false);
    expect(live.enabled(cc)).toBe(false);
    expect(live.enabled({ ...pk, name: "other" })).toBe(false); // not in the store (uninstalled): off
    fs.writeFileSync(file, JSON.stringify({ plugins: [{ name: "pk", enabled: true }], external: {} }) + " ");
    expect(live.enabled({ ...pk, enabled: false })).toBe(true);
    expect(live.enabled({ ...cc, enabled: false })).toBe(false);
    fs.writeFileSync(file, "{ not json");
    expect(live.enabled(pk)).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
