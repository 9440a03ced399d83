import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx", "extensions/**/*.test.ts", "extensions/**/*.test.tsx", "kernel/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // most tests wait on a spawned CLI, not the CPU: two workers even on a 2-core CI machine (vitest's
    // default there is one) keep the suite well inside CI's 15 minutes
    maxWorkers: 2,
  },
});
