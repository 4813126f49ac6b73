import { availableParallelism } from "node:os";
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
    // One worker a core: Vitest's default leaves one core to its own process, which on a two-core machine runs the
    // files one at a time while the main process has little left to do once they are transformed.
    maxWorkers: availableParallelism(),
    testTimeout: 30000,
    hookTimeout: 30000,
  },
});
