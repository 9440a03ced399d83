/** Shared plumbing for the cache keep-alive tests: the fake Anthropic server's replies and an in-process kernel. */
import { anthropicEnv, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import type { AnthropicRecorded, AnthropicReply, FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import type { CacheTouchedEvent, EngineService, SessionEvent } from "../../engine/api.js";
import type { StorageService } from "../../storage/api.js";
import { bootCompiled, type KernelLike } from "../../../test/kit/kernel-boot.js";

/** $3 / $15 per million, 64k output; not deprecated, so the SDK prints no notice */
export const MODEL = "anthropic/claude-sonnet-4-6";

/** Requests with max_tokens 1 are touches. */
export const isTouch = (q: AnthropicRecorded) => q.body.max_tokens === 1;
export const touches = (fake: FakeAnthropicServer) => fake.requests.filter(isTouch);
export const real = (fake: FakeAnthropicServer) => fake.requests.filter((q) => !isTouch(q));

/** What the keep-alive must keep identical: everything but max_tokens. */
export const prefixOf = (q: AnthropicRecorded) => JSON.stringify({ ...q.body, max_tokens: undefined });

/**
 * The fake's replies: a touch gets `touch` (default a one-token answer); a real request after a tool
 * result gets "done"; the first real request of a prompt gets `first`.
 */
export function script(fake: FakeAnthropicServer, first: AnthropicReply, touch: AnthropicReply = { text: "." }): void {
  fake.respond((q) => {
    if (isTouch(q)) return touch;
    const last = q.body.messages?.at(-1)?.content;
    const afterTool = Array.isArray(last) && last.some((b) => b.type === "tool_result");
    return afterTool ? { text: "done" } : first;
  });
}


export interface Booted {
  sb: Sandbox;
  kernel: KernelLike;
  engine: EngineService;
  storage: StorageService;
  events: SessionEvent[];
  touched(): CacheTouchedEvent[];
}

/** A real kernel (compiled extensions, SQLite storage) on a sandbox, pointed at the fake Anthropic server. */
export async function boot(fake: FakeAnthropicServer, env: NodeJS.ProcessEnv): Promise<Booted> {
  const sb = makeSandbox("oc-keepalive-");
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
  const kernel = await bootCompiled(sb, anthropicEnv(sb, fake.url, env));
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const storage = await kernel.service("storage");
  const events: SessionEvent[] = [];
  engine.subscribe((e) => events.push(e));
  return { sb, kernel, engine, storage, events, touched: () => events.filter((e): e is CacheTouchedEvent => e.type === "session.cache.touched") };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Minutes for an interval in ms, as OC_CACHE_KEEPALIVE_MINUTES takes them. */
export const minutes = (ms: number) => String(ms / 60_000);
