/**
 * V8 settings for the CLI process, applied before any other module loads (main.ts imports this first).
 *
 * --liftoff-only: WebAssembly runs on V8's baseline compiler only. The shell guard parses every bash
 * command with tree-sitter (wasm) and undici parses HTTP with llhttp (wasm); with V8's default dynamic
 * tiering each hot wasm function is recompiled by TurboFan, which on the marathon bench kept ~30 MB more
 * resident after a few thousand parses and never gave it back (docs/performance.md). A parse takes
 * microseconds either way.
 */
import v8 from "node:v8";

v8.setFlagsFromString("--liftoff-only");
