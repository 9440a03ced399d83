/** `oceancode update [--channel stable|next] [--self-test] [--manifest <url>] [--pubkey <base64>]`: policy, then install.ts. */
import path from "node:path";
import { parseArgs } from "node:util";
import type { CommandIO, ExtensionContext } from "../../kernel/api.js";
import { CHANNELS, type Channel } from "./api.js";
import { versionsDir } from "./kit/shared.js";
import { runUpdate } from "./install.js";
import { selfTest } from "./self-test.js";

const USAGE = "usage: oceancode update [--channel stable|next] [--self-test] [--manifest <url>] [--pubkey <base64>]";
/** update.enabled is false: exit 3, apart from a failed update's 1 */
export const EXIT_UPDATES_OFF = 3;

function layerName(ctx: ExtensionContext, key: string): string {
  const s = ctx.config.sourceOf(key);
  return s?.file ?? s?.layer ?? "config";
}

export async function updateCommand(ctx: ExtensionContext, argv: string[], io: CommandIO, runningVersion: string): Promise<number> {
  let values: { channel?: string; "self-test"?: boolean; manifest?: string; pubkey?: string };
  try {
    values = parseArgs({ args: argv, strict: true, options: { channel: { type: "string" }, "self-test": { type: "boolean" }, manifest: { type: "string" }, pubkey: { type: "string" } } }).values;
  } catch (e) {
    io.stderr.write(`oceancode update: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.channel !== undefined && !CHANNELS.includes(values.channel as Channel)) {
    io.stderr.write(`oceancode update: unknown channel '${values.channel}' (stable or next)\n${USAGE}\n`);
    return 2;
  }
  if (values["self-test"]) return selfTest(io, runningVersion);
  if (ctx.config.get("update.enabled") === false) {
    io.stderr.write(`oceancode update: updates are turned off (update.enabled is false in ${layerName(ctx, "update.enabled")}); nothing was changed\n`);
    return EXIT_UPDATES_OFF;
  }
  const configured = (ctx.config.get("update.channel") as Channel | undefined) ?? "stable";
  const pinned = ctx.config.sourceOf("update.channel")?.layer === "requirements";
  let channel: Channel = (values.channel as Channel | undefined) ?? configured;
  if (pinned && values.channel !== undefined && values.channel !== configured) {
    io.stderr.write(`oceancode: warning: --channel ignored: update.channel is pinned to ${configured} by ${layerName(ctx, "update.channel")}\n`);
    channel = configured;
  }
  const url = values.manifest ?? (ctx.config.get("update.manifest_url") as string | undefined);
  if (!url) {
    io.stderr.write("oceancode update: no release manifest: set update.manifest_url in your config (https: or file:) or pass --manifest <url>\n");
    return 1;
  }
  const timeout = (ctx.config.get("update.timeout_ms") as number | undefined) ?? 30_000;
  const out = await runUpdate({
    versions: versionsDir(ctx.paths.dataDir),
    manifestUrl: url.replaceAll("{channel}", channel),
    channel,
    runningVersion,
    ...(values.pubkey !== undefined ? { pubkey: values.pubkey } : {}),
    timeoutMs: timeout,
    say: (l) => io.stdout.write(`${l}\n`),
    env: io.env,
  });
  if (out.code === 0) io.stdout.write(`${out.message}\n`);
  else io.stderr.write(`oceancode update: ${out.message}\n`);
  if (out.result === "updated") io.stdout.write(`the next oceancode runs ${out.version} (${path.join(versionsDir(ctx.paths.dataDir), "current")})\n`);
  return out.code;
}
