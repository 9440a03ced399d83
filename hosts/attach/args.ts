/** attach's usage, summary and flags: read by `--help` without loading the client (hosts/cli/main.ts). */
import type { FlagDoc } from "../cli/help.js";

export const ATTACH_USAGE_LINE = "oceancode attach <url> [--session <id>]";
export const ATTACH_SUMMARY = "open Ocean pager on a running oceancode serve (its sessions, keys and extensions)";
export const ATTACH_FLAGS: FlagDoc[] = [{ name: "--session", value: "<id>", summary: "open this session of the server instead of a new one" }];
