import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The slow tier has its own config (vitest.slow.config.ts).
    exclude: ["test/slow/**", "**/node_modules/**"],
    // Worker threads sharing each worker's module cache across files: the files hold no module state of their own
    // that another could see, and the fast tier then spends its time in the tests rather than loading modules again.
    pool: "threads",
    isolate: false,
    testTimeout: 30000,
    hookTimeout: 30000,
  },
});
