import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx", "extensions/**/*.test.ts", "extensions/**/*.test.tsx", "kernel/**/*.test.ts", "hosts/**/*.test.ts", "hosts/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // most tests wait on a spawned CLI, a server or a bounded timer, so the cores are idle a good part of the
    // time: four workers even on a 2-core machine, one per core past that (measured on 2 cores: 432 s with two
    // isolated workers, 346 s with four, 284 s with four sharing their module cache). No test file depends on
    // a fresh module registry (the suite passes in any order), so the workers keep theirs between files.
    isolate: false,
    maxWorkers: Math.max(4, availableParallelism()),
    // the failing tests again as the last lines: CI shows only the tail of the log
    reporters: ["default", "./test/kit/failure-tail.ts"],
  },
});
