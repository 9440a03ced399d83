/**
 * V8 settings for the CLI process, applied once --help and --version are answered (cli.ts imports this
 * then, before any session or command runs: the two flags cost those quick paths ~4 ms and save them nothing).
 * Both were measured on the marathon bench (docs/performance.md):
 *
 * --liftoff-only: WebAssembly runs on V8's baseline compiler only. The shell guard parses every bash
 * command with tree-sitter (wasm) and undici parses HTTP with llhttp (wasm); with V8's default dynamic
 * tiering each hot wasm function is recompiled by TurboFan, which kept ~30 MB more resident (RSS at
 * step 1: 122 -> 94 MB) and grew with the number of parses. A parse takes microseconds either way.
 * It also lets `run` exit on time: after the first HTTP response llhttp's parse function is hot, and node
 * does not exit before a background TurboFan compile of it finishes (200-400 ms idle after `run "hi"`'s
 * last write, with no handle or timer open).
 *
 * --optimize-for-size: V8 keeps its heap small instead of fast: the young generation stays at a few MB
 * instead of growing to 32 MB, and the old generation is collected sooner. Peak RSS of the 200-step
 * marathon 171 -> ~110 MB, with no change seen in per-step engine overhead or in `run` wall time.
 * (--max-semi-space-size would do part of it, but only on the command line: V8 sizes the young
 * generation when the process starts, and a re-exec costs startup time.) It is set once start-up is
 * over (SIZE_AFTER_MS): during start-up, while ~150 modules compile, its small young generation meant
 * scavenge after scavenge (GC was ~25 ms of `run "hi"`), and the heap it keeps small is a long session's.
 */
import v8 from "node:v8";

/** When start-up is over: a trivial `run "hi"` is done by then, a session has only begun. */
const SIZE_AFTER_MS = 1000;

v8.setFlagsFromString("--liftoff-only");
setTimeout(() => v8.setFlagsFromString("--optimize-for-size"), SIZE_AFTER_MS).unref();
