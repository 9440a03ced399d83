import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx", "extensions/**/*.test.ts", "extensions/**/*.test.tsx", "kernel/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // most tests wait on a spawned CLI: two workers even on a 2-core CI machine (vitest's default there is
    // one), one per core on a bigger one (a third worker on 2 cores measured 5% faster and flakier)
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
