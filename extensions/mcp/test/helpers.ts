/** What the MCP client tests share: the fixture server as a stdio entry, and whether a server's process is still alive. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerEntry } from "../api.js";

/** The scriptable MCP fixture server (fixtures/tools-server.mjs). */
export const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "tools-server.mjs");

/** The fixture as a ready, trusted user-tier stdio server named `name` (its own flags after). */
export const fixtureEntry = (name: string, args: string[] = []): ServerEntry => ({
  name,
  qualifiedName: name,
  tier: "user",
  source: "t",
  config: { type: "stdio", command: process.execPath, args: [FIXTURE, "--name", name, ...args], env: {} },
  trusted: true,
  enabled: true,
  hold: "ready",
});

/** Is `pid` running (a zombie waiting for its parent counts as gone)? */
export const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};
