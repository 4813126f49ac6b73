import { defineConfig } from "vitest/config";

/** The slow tier: kill -9 soaks and long runs, which CI runs after the fast tier (`npm run test:slow`). */
export default defineConfig({
  test: {
    include: ["test/slow/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
